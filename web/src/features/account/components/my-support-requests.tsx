import { Link } from 'react-router-dom';

import { paths } from '@/config/paths';
import { formatDate } from '@/lib/dates';

import { useMySupportRequests } from '../api/get-my-support-requests';

/** «Мои обращения»: what the user wrote through the contact form while signed in, and the answers. */
export function MySupportRequests() {
  const requests = useMySupportRequests().data?.requests ?? [];
  if (requests.length === 0) {
    return (
      <p className="text-body-secondary mb-0">
        Обращений пока нет. Вопрос или проблема — <Link to={paths.contact}>напишите нам</Link>, ответ появится здесь.
      </p>
    );
  }
  return (
    <ul className="list-unstyled mb-0 d-grid gap-3">
      {requests.map((request) => (
        <li key={request.id}>
          <div className="fw-medium">{request.subject}</div>
          <div className="small text-body-secondary">{formatDate(request.created_at)}</div>
          <div className="support-full-text">{request.message}</div>
          {request.answer ? (
            <div className="support-full-text mt-1 ps-2 border-start border-3 border-success">
              <span className="small text-body-secondary d-block">
                Ответ{request.answered_at ? `, ${formatDate(request.answered_at)}` : ''}
              </span>
              {request.answer}
            </div>
          ) : (
            <div className="small text-body-secondary mt-1">
              {request.status === 'done' ? 'Решено.' : 'Ждёт ответа.'}
            </div>
          )}
        </li>
      ))}
    </ul>
  );
}
