import Alert from 'react-bootstrap/Alert';

import { TextField, type TextFieldProps } from '@/components/ui/form-field';
import { errorMessage } from '@/lib/api-client';

/** Tells that after `step` («входа», «регистрации») the link page asks to confirm the Telegram account of the link token. */
export function LinkNotice({ linkToken, step }: { linkToken: string | null; step: string }) {
  if (!linkToken) return null;
  return (
    <Alert variant="info" className="small">
      После {step} вы увидите, какой аккаунт Telegram просит связки, и сможете её подтвердить.
    </Alert>
  );
}

/** A password field; `autoComplete` tells the browser which password it is. */
export function PasswordField(
  props: Omit<TextFieldProps, 'type'> & { autoComplete: 'current-password' | 'new-password' },
) {
  return <TextField className="mb-3" type="password" {...props} />;
}

/** The e-mail field of the login and registration forms. */
export function EmailField(props: Omit<TextFieldProps, 'label' | 'type'>) {
  return (
    <TextField
      label="Email"
      className="mb-3"
      type="email"
      autoComplete="email"
      placeholder="you@example.com"
      {...props}
    />
  );
}

/** Under the form after a failed attempt: the server's text, else `fallback`. */
export function AuthFailure({ error, fallback }: { error: Error | null; fallback: string }) {
  if (!error) return null;
  return (
    <Alert variant="danger" className="mt-3 mb-0" role="alert">
      {errorMessage(error, fallback)}
    </Alert>
  );
}
