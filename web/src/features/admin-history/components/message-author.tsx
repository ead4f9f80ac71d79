import type { HistoryMessage } from '@gpt/contracts';
import Badge from 'react-bootstrap/Badge';

import { authorName } from '../status';

/** Who wrote a message: username with first and last name, the user id, and a mark once the user is deleted. */
export function MessageAuthor({ message }: { message: HistoryMessage }) {
  return (
    <>
      <div className="text-break">{authorName(message) || '—'}</div>
      <div className="small text-body-secondary">
        ID {message.user_id}
        {message.user_deleted && (
          <Badge bg="secondary" className="ms-2">
            Пользователь удалён
          </Badge>
        )}
      </div>
    </>
  );
}
