import type { Consumer, EventSchemas } from '@gpt/kit';
import type { AuthDeps } from '../deps';
import type { AuthDatabase } from '../data/schema';
import { sendMail } from '../domain/mailer';

/**
 * An admin answered a support request by e-mail: auth, which sends the product's mail, mails it once
 * (the inbox row of the event is the once; a mail that fails after the commit is logged, not retried).
 * Answers through the bot are the bot's.
 */
export const supportAnsweredConsumer = (deps: AuthDeps): Consumer<AuthDatabase, EventSchemas, 'support.answered'> => ({
  event: 'support.answered',
  handle: async () => undefined,
  async afterCommit(event) {
    const { channel, email, subject, answer } = event.data;
    if (channel !== 'email' || !email) return;
    await sendMail(deps, {
      to: email,
      subject: `Ответ на ваше обращение: ${subject}`,
      text: `${answer}\n\n—\nЭто ответ на сообщение из формы обратной связи на сайте ${deps.config.SITE_URL}.`,
    }).catch((err: unknown) => deps.logger.error({ err }, 'the answer to a support request was not mailed'));
  },
});
