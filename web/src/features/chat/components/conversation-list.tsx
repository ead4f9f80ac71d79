import { CHAT_TITLE_MAX_CHARS, type ChatConversation } from '@gpt/contracts';
import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';

import { BusyButton } from '@/components/ui/busy-button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { DialogFrame } from '@/components/ui/dialog-frame';
import { Icon } from '@/components/ui/icons';
import { errorMessage } from '@/lib/api-client';
import { formatRelativeDate } from '@/lib/dates';

import { useDeleteConversation } from '../api/delete-conversation';
import { useRenameConversation } from '../api/rename-conversation';

export interface ConversationListProps {
  conversations: ChatConversation[];
  openId: string | null;
  onOpen(id: string): void;
  /** After the open conversation was deleted. */
  onDeleted(id: string): void;
}

/** The user's conversations, newest first, each with «Переименовать» and «Удалить» (asked first). */
export function ConversationList({ conversations, openId, onOpen, onDeleted }: ConversationListProps) {
  const rename = useRenameConversation();
  const remove = useDeleteConversation();
  const [renaming, setRenaming] = useState<{ id: string; title: string } | null>(null);
  const [deleting, setDeleting] = useState<ChatConversation | null>(null);

  if (conversations.length === 0) {
    return <p className="small text-body-secondary px-3 py-2 mb-0">Здесь появятся ваши чаты — и из бота тоже.</p>;
  }

  return (
    <>
      <ul className="chat-list list-unstyled mb-0" aria-label="Чаты">
        {conversations.map((conversation) => (
          <li key={conversation.id} className={`chat-list-item ${conversation.id === openId ? 'active' : ''}`}>
            <button
              type="button"
              className="chat-list-open"
              aria-current={conversation.id === openId ? 'page' : undefined}
              onClick={() => onOpen(conversation.id)}
            >
              <span className="chat-list-title">{conversation.title || 'Новый чат'}</span>
              <span className="chat-list-meta small text-body-secondary">
                {formatRelativeDate(conversation.updatedAt)} ·{' '}
                {conversation.lastDoor === 'telegram' ? 'Telegram' : 'сайт'}
                {conversation.current && ' · продолжится в боте'}
              </span>
            </button>
            <span className="chat-list-actions">
              <Button
                variant="link"
                size="sm"
                className="chat-icon-button"
                aria-label={`Переименовать «${conversation.title || 'Новый чат'}»`}
                title="Переименовать"
                onClick={() => {
                  rename.reset();
                  setRenaming({ id: conversation.id, title: conversation.title });
                }}
              >
                <Icon name="edit" size={16} />
              </Button>
              <Button
                variant="link"
                size="sm"
                className="chat-icon-button"
                aria-label={`Удалить «${conversation.title || 'Новый чат'}»`}
                title="Удалить"
                onClick={() => {
                  remove.reset();
                  setDeleting(conversation);
                }}
              >
                <Icon name="trash" size={16} />
              </Button>
            </span>
          </li>
        ))}
      </ul>

      <DialogFrame
        show={renaming !== null}
        onHide={() => setRenaming(null)}
        title="Переименовать чат"
        dismissLabel="Отмена"
        busy={rename.isPending}
        error={rename.isError ? errorMessage(rename.error, 'Не удалось переименовать чат.') : null}
        onSubmit={(event) => {
          event.preventDefault();
          if (renaming) rename.mutate(renaming, { onSuccess: () => setRenaming(null) });
        }}
        action={
          <BusyButton type="submit" busy={rename.isPending}>
            Сохранить
          </BusyButton>
        }
      >
        <Form.Group controlId="chat-rename-title">
          <Form.Label>Название</Form.Label>
          <Form.Control
            autoFocus
            maxLength={CHAT_TITLE_MAX_CHARS}
            value={renaming?.title ?? ''}
            onChange={(event) => setRenaming((current) => current && { ...current, title: event.target.value })}
          />
        </Form.Group>
      </DialogFrame>

      <ConfirmDialog
        show={deleting !== null}
        title="Удаление чата"
        message={
          <>
            Удалить чат <strong>«{deleting?.title || 'Новый чат'}»</strong> со всеми сообщениями? Его не будет ни здесь,
            ни в боте.
          </>
        }
        onConfirm={() =>
          deleting &&
          remove.mutate(deleting.id, {
            onSuccess: () => {
              onDeleted(deleting.id);
              setDeleting(null);
            },
          })
        }
        onCancel={() => setDeleting(null)}
        pending={remove.isPending}
        error={remove.isError ? errorMessage(remove.error, 'Не удалось удалить чат.') : null}
      />
    </>
  );
}
