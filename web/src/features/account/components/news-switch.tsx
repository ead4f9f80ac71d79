import { useId } from 'react';
import Form from 'react-bootstrap/Form';

import { errorMessage } from '@/lib/api-client';

import { useNewsSubscription, useSetNewsSubscription } from '../api/news';

/** «Новости и акции»: the bot's broadcasts on or off, the same switch as the bot's /settings (docs/bot.md, Broadcasts). */
export function NewsSwitch() {
  const id = useId();
  const news = useNewsSubscription();
  const save = useSetNewsSubscription();
  const failed = news.isError
    ? errorMessage(news.error, 'Не удалось узнать, получаете ли вы рассылки.')
    : save.isError
      ? errorMessage(save.error, 'Не удалось сохранить выбор.')
      : null;
  return (
    <Form.Group className="mt-3" controlId={id}>
      <Form.Check
        type="switch"
        label="Новости и акции в Telegram"
        checked={news.data?.news ?? false}
        disabled={!news.isSuccess || save.isPending}
        onChange={(event) => save.mutate({ news: event.target.checked })}
      />
      <Form.Text className="d-block">Рассылки бота о новых моделях, скидках и вашем тарифе.</Form.Text>
      {failed && <div className="text-danger small mt-1">{failed}</div>}
    </Form.Group>
  );
}
