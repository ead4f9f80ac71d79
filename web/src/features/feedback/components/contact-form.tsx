import { useState, type ChangeEvent, type FormEvent } from 'react';
import Alert from 'react-bootstrap/Alert';
import Form from 'react-bootstrap/Form';

import { BusyButton } from '@/components/ui/busy-button';

import { useSendFeedback, type FeedbackInput } from '../api/send-feedback';

const empty: FeedbackInput = { telegram: '', subject: '', message: '' };

/** Grows the message box with its content, never below its 5 rows. */
function autoGrow(textarea: HTMLTextAreaElement) {
  textarea.style.height = 'auto';
  textarea.style.height = `${textarea.scrollHeight + 2}px`;
}

export function ContactForm() {
  const [values, setValues] = useState<FeedbackInput>(empty);
  const [validated, setValidated] = useState(false);
  const [result, setResult] = useState<'sent' | 'failed' | null>(null);
  const send = useSendFeedback();

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    setValidated(true);
    if (!form.checkValidity()) return;
    const input = { telegram: values.telegram.trim(), subject: values.subject.trim(), message: values.message.trim() };
    if (!input.telegram || !input.subject || !input.message) return;
    setResult(null);
    send.mutate(input, {
      onSuccess: () => {
        setResult('sent');
        setValues(empty);
        setValidated(false);
        const textarea = form.querySelector('textarea');
        if (textarea) textarea.style.height = '';
      },
      onError: (err) => {
        console.error('Feedback failed', err);
        setResult('failed');
      },
    });
  }

  const bind = (name: keyof FeedbackInput) => ({
    name,
    value: values[name],
    required: true,
    onChange: (e: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => {
      setValues((v) => ({ ...v, [name]: e.target.value }));
      if (e.target instanceof HTMLTextAreaElement) autoGrow(e.target);
    },
  });

  return (
    <Form noValidate validated={validated} onSubmit={onSubmit}>
      <Form.Group className="mb-3" controlId="contact-telegram">
        <Form.Label>Telegram</Form.Label>
        <Form.Control type="text" placeholder="@username или номер" {...bind('telegram')} />
        <Form.Control.Feedback type="invalid">Укажите Telegram для ответа</Form.Control.Feedback>
      </Form.Group>
      <Form.Group className="mb-3" controlId="contact-subject">
        <Form.Label>Тема</Form.Label>
        <Form.Control type="text" {...bind('subject')} />
        <Form.Control.Feedback type="invalid">Укажите тему</Form.Control.Feedback>
      </Form.Group>
      <Form.Group className="mb-4" controlId="contact-message">
        <Form.Label>Сообщение</Form.Label>
        <Form.Control as="textarea" rows={5} className="contact-message" {...bind('message')} />
        <Form.Control.Feedback type="invalid">Напишите сообщение</Form.Control.Feedback>
      </Form.Group>
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
