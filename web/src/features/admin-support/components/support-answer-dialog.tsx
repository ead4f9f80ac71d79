import type { SupportRequest } from '@gpt/contracts';
import { useState } from 'react';

import { FormDialog } from '@/components/ui/form-dialog';
import { TextField } from '@/components/ui/form-field';
import { DetailList } from '@/components/ui/view-dialog';
import { useToast } from '@/components/ui/toasts';
import { errorMessage } from '@/lib/api-client';
import { formatDateTime } from '@/lib/dates';

import { useAnswerSupportRequest } from '../api/answer-support-request';
import { answerRoute, senderOf } from '../format';

/** One request in full; an answer when it can go somewhere and none was given yet. */
export function SupportAnswerDialog({ request, onHide }: { request: SupportRequest | null; onHide: () => void }) {
  const toast = useToast();
  const answer = useAnswerSupportRequest();
  const [text, setText] = useState('');
  const canAnswer = request !== null && request.answer === null && request.answer_channel !== null;

  function submit() {
    if (!request || !canAnswer) return onHide();
    answer.mutate(
      { id: request.id, answer: text },
      {
        onSuccess: (answered) => {
          toast.success('Ответ отправлен', answered.answered_via === 'telegram' ? 'Бот доставит его.' : 'Письмо ушло.');
          setText('');
          onHide();
        },
      },
    );
  }

  return (
    <FormDialog
      show={request !== null}
      title={request ? `Обращение «${request.subject}»` : ''}
      onHide={() => {
        answer.reset();
        onHide();
      }}
      onSubmit={submit}
      saving={answer.isPending}
      error={answer.error ? errorMessage(answer.error, 'Не удалось отправить ответ.') : null}
      submitLabel={canAnswer ? 'Ответить' : 'Закрыть'}
      width="model"
    >
      {request && (
        <>
          <DetailList
            className="mb-3"
            items={[
              { label: 'От', value: senderOf(request) },
              { label: 'Получено', value: formatDateTime(request.created_at) },
              { label: 'Сообщение', value: <span className="support-full-text">{request.message}</span> },
              { label: 'Ответ уйдёт', value: answerRoute(request), hidden: request.answer !== null },
              {
                label: 'Ответ',
                value: <span className="support-full-text">{request.answer}</span>,
                hidden: !request.answer,
              },
            ]}
          />
          {canAnswer && (
            <TextField
              controlId="support-answer"
              label="Ответ"
              as="textarea"
              rows={5}
              value={text}
              onChange={(event) => setText(event.target.value)}
            />
          )}
        </>
      )}
    </FormDialog>
  );
}
