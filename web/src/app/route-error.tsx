import Button from 'react-bootstrap/Button';
import Container from 'react-bootstrap/Container';
import { isRouteErrorResponse, useRouteError } from 'react-router-dom';

import { EmptyState } from '@/components/ui/empty-state';
import { paths } from '@/config/paths';

/** Shown when a page crashes or its code cannot be loaded (e.g. after a new release). */
export function RouteError() {
  const error = useRouteError();
  console.error('Route error', error);
  const status = isRouteErrorResponse(error) ? error.status : null;
  return (
    <Container className="py-5">
      <EmptyState
        icon="alert"
        title={status === 404 ? 'Страница не найдена' : 'Что-то пошло не так'}
        actions={
          <>
            <Button variant="primary" onClick={() => window.location.reload()}>
              Обновить страницу
            </Button>
            <a className="btn btn-outline-secondary" href={paths.home}>
              На главную
            </a>
          </>
        }
      >
        Попробуйте обновить страницу. Если ошибка повторяется, напишите нам через форму обратной связи.
      </EmptyState>
    </Container>
  );
}
