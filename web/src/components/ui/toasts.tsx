import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from 'react';
import Toast from 'react-bootstrap/Toast';
import ToastContainer from 'react-bootstrap/ToastContainer';

/** Toasts live 3 s and stack in the top-right corner (docs/product.md, Limits). */
export const TOAST_LIFETIME_MS = 3000;

export type ToastVariant = 'success' | 'danger' | 'warning' | 'info';

export interface ToastInput {
  title: string;
  message?: string;
  variant?: ToastVariant;
}

interface ToastItem extends Required<Omit<ToastInput, 'message'>> {
  id: number;
  message: string | undefined;
}

export interface ToastApi {
  show(toast: ToastInput): void;
  success(title: string, message?: string): void;
  error(title: string, message?: string): void;
}

const ToastContext = createContext<ToastApi | null>(null);

let nextId = 1;

export function ToastProvider({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<ToastItem[]>([]);

  const remove = useCallback((id: number) => setToasts((items) => items.filter((item) => item.id !== id)), []);

  const api = useMemo<ToastApi>(() => {
    const show = ({ title, message, variant = 'info' }: ToastInput) =>
      setToasts((items) => [...items, { id: nextId++, title, message, variant }]);
    return {
      show,
      success: (title, message) => show({ title, message, variant: 'success' }),
      error: (title, message) => show({ title, message, variant: 'danger' }),
    };
  }, []);

  return (
    <ToastContext.Provider value={api}>
      {children}
      <ToastContainer position="top-end" containerPosition="fixed" className="p-3 app-toasts">
        {toasts.map((toast) => (
          <Toast
            key={toast.id}
            bg={toast.variant}
            autohide
            delay={TOAST_LIFETIME_MS}
            onClose={() => remove(toast.id)}
            role={toast.variant === 'danger' ? 'alert' : 'status'}
          >
            <Toast.Header closeLabel="Закрыть">
              <strong className="me-auto">{toast.title}</strong>
            </Toast.Header>
            {toast.message && (
              <Toast.Body className={toast.variant === 'warning' || toast.variant === 'info' ? '' : 'text-white'}>
                {toast.message}
              </Toast.Body>
            )}
          </Toast>
        ))}
      </ToastContainer>
    </ToastContext.Provider>
  );
}

/** Shows toasts: `const toast = useToast(); toast.success('Пароль изменён', 'Теперь входите с новым паролем.')`. */
export function useToast(): ToastApi {
  const api = useContext(ToastContext);
  if (!api) throw new Error('useToast() needs <ToastProvider> above it');
  return api;
}
