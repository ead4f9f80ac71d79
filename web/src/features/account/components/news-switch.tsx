import { useNewsSubscription, useSetNewsSubscription } from '../api/news';
import { AccountSwitch } from './account-switch';

/** «Новости и акции»: the bot's broadcasts on or off, the same switch as the bot's /settings (docs/bot.md, Broadcasts). */
export function NewsSwitch() {
  return (
    <AccountSwitch
      label="Новости и акции в Telegram"
      hint="Рассылки бота о новых моделях, скидках и вашем тарифе."
      read={useNewsSubscription()}
      write={useSetNewsSubscription()}
      on={(value) => value.news}
      body={(news) => ({ news })}
      readFailed="Не удалось узнать, получаете ли вы рассылки."
    />
  );
}
