/**
 * Read-only «view» dialogs: a Modal with a «Закрыть» button, and a label → value list for its body.
 *
 * ```tsx
 * <ViewDialog show={viewed !== null} title="Информация о пользователе" onHide={() => setViewed(null)}>
 *   {viewed && (
 *     <DetailList
 *       items={[
 *         { label: 'ID', value: viewed.id },
 *         { label: 'Email', value: viewed.email },
 *         { label: 'Описание', value: viewed.description },          // '' / null / undefined → «Не указано»
 *         { label: 'Метаданные', value: <pre>{json}</pre>, hidden: !viewed.metadata },
 *       ]}
 *     />
 *   )}
 * </ViewDialog>
 * ```
 * `loading` shows a spinner instead of the body, `error` a red alert above it, `footer` extra buttons left of
 * «Закрыть» (e.g. previous / next in the history detail), `width` a docs/product.md, Limits width.
 */
import type { ReactNode } from 'react';

import { DialogFrame, type DialogFrameProps } from './dialog-frame';
import { SpinnerBlock } from './spinner-block';

/** Shown for an empty value (docs/product.md, Screens: an empty tariff description shows 'Не указано'). */
export const NOT_SPECIFIED = 'Не указано';

export interface DetailItem {
  label: ReactNode;
  value: ReactNode;
  /** Leave the row out (e.g. metadata only when present). */
  hidden?: boolean;
}

/** True for null, undefined, false and blank strings; 0 is a value. */
export function isEmptyValue(value: ReactNode): boolean {
  return value === null || value === undefined || value === false || (typeof value === 'string' && value.trim() === '');
}

export function DetailList({ items, className }: { items: readonly DetailItem[]; className?: string }) {
  return (
    <dl className={`info-list detail-list mb-0 ${className ?? ''}`}>
      {items
        .filter((item) => !item.hidden)
        .map((item, index) => (
          <div className="info-item" key={index}>
            <dt>{item.label}</dt>
            <dd>
              {isEmptyValue(item.value) ? <span className="text-body-secondary">{NOT_SPECIFIED}</span> : item.value}
            </dd>
          </div>
        ))}
    </dl>
  );
}

export interface ViewDialogProps extends Omit<
  DialogFrameProps,
  'children' | 'dismissLabel' | 'footerStart' | 'action' | 'busy' | 'onSubmit'
> {
  children?: ReactNode;
  loading?: boolean;
  /** Buttons left of «Закрыть». */
  footer?: ReactNode;
}

export function ViewDialog({ children, loading = false, footer, ...frame }: ViewDialogProps) {
  return (
    <DialogFrame {...frame} dismissLabel="Закрыть" footerStart={footer}>
      {loading ? <SpinnerBlock /> : children}
    </DialogFrame>
  );
}
