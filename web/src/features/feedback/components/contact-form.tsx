import { FeedbackRequest } from '@gpt/contracts';
import { useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Form from 'react-bootstrap/Form';

import { BusyButton } from '@/components/ui/busy-button';
import { TextField } from '@/components/ui/form-field';
import { useContractForm } from '@/lib/contract-form';
import { useSession } from '@/lib/session/session';

import { useSendFeedback } from '../api/send-feedback';

/** Grows the message box with its content, never below its 5 rows. */
function autoGrow(textarea: HTMLTextAreaElement) {
  textarea.style.height = 'auto';
  textarea.style.height = `${textarea.scrollHeight + 2}px`;
}

export function ContactForm() {
  const [result, setResult] = useState<'sent' | 'failed' | null>(null);
  const send = useSendFeedback();
  const { user } = useSession();
  const form = useContractForm(FeedbackRequest, { telegram: '', subject: '', message: '', email: user?.email ?? '' });

  const onSubmit = form.handleSubmit((body, event) => {
    setResult(null);
    send.mutate(body, {
      onSuccess: () => {
        setResult('sent');
        form.reset();
        const textarea = (event?.target as HTMLFormElement | undefined)?.querySelector('textarea');
        if (textarea) textarea.style.height = '';
      },
      onError: (err) => {
        console.error('Feedback failed', err);
        setResult('failed');
      },
    });
  });

  return (
    <Form noValidate onSubmit={onSubmit}>
      <TextField
        controlId="contact-telegram"
        label="Telegram"
        className="mb-3"
        placeholder="@username или номер"
        {...form.field('telegram')}
      />
      <TextField
        controlId="contact-email"
        label="E-mail для ответа"
        className="mb-3"
        type="email"
        placeholder="name@example.ru"
        hint={
          user
            ? 'Ответ придёт в Telegram, если он связан с аккаунтом, иначе на этот e-mail, и будет виден в личном кабинете.'
            : 'Ответим на этот e-mail, а без него — напишем в Telegram по контакту выше.'
        }
        {...form.field('email')}
      />
      <TextField controlId="contact-subject" label="Тема" className="mb-3" {...form.field('subject')} />
      <TextField
        controlId="contact-message"
        label="Сообщение"
        className="mb-4"
        as="textarea"
        rows={5}
        controlClassName="contact-message"
        {...form.field('message', { onChange: (event) => autoGrow(event.target as HTMLTextAreaElement) })}
      />
      <BusyButton type="submit" variant="primary" busy={send.isPending}>
        Отправить
      </BusyButton>
      {result === 'sent' && (
        <Alert variant="success" className="mt-3 mb-0" role="status">
          Спасибо! Ваше сообщение отправлено.
        </Alert>
      )}
      {result === 'failed' && (
        <Alert variant="danger" className="mt-3 mb-0" role="alert">
          Ошибка отправки. Попробуйте позже.
        </Alert>
      )}
    </Form>
  );
}
