import type { HistoryMessage } from '@gpt/contracts';
import Badge from 'react-bootstrap/Badge';

import { PersonName } from '@/components/ui/person-name';

/** Who wrote a message: the person's name (as everywhere), the user id, and a mark once the user is deleted. */
export function MessageAuthor({ message }: { message: HistoryMessage }) {
  return (
    <>
      <div className="text-break">
        <PersonName person={message} />
      </div>
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
