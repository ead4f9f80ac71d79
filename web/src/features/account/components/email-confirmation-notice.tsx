import Alert from 'react-bootstrap/Alert';

import { BusyButton } from '@/components/ui/busy-button';
import { EmailText } from '@/components/ui/email-text';
import { errorMessage } from '@/lib/api-client';

import { useResendEmailConfirmation } from '../api/email-confirmation';

/** An unconfirmed account's notice (docs/product.md, Personal account): the welcome credits wait for the mailed link. */
export function EmailConfirmationNotice({ email }: { email: string }) {
  const resend = useResendEmailConfirmation();
  return (
    <Alert variant="warning" className="mb-4" data-testid="email-confirmation-notice">
      <p className="mb-3">
        Подтвердите e-mail, чтобы получить приветственные кредиты. Мы отправили письмо на <EmailText email={email} />.
      </p>
      <BusyButton variant="outline-dark" busy={resend.isPending} onClick={() => resend.mutate()}>
        Отправить письмо ещё раз
      </BusyButton>
      {resend.isSuccess && (
        <p className="mt-3 mb-0" role="status">
          {resend.data.message}
        </p>
      )}
      {resend.isError && (
        <p className="mt-3 mb-0 text-danger" role="alert">
          {errorMessage(resend.error, 'Не удалось отправить письмо. Попробуйте позже.')}
        </p>
      )}
    </Alert>
  );
}
