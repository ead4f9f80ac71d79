import type { Consumer, EventSchemas } from '@gpt/kit';
import type { ContentDeps } from '../deps';
import { authorsRepository } from '../data/authors.repository';
import type { ContentDatabase } from '../data/schema';

type ContentConsumer = Consumer<ContentDatabase, EventSchemas, 'user.registered' | 'user.updated' | 'user.deleted'>;

/**
 * Keeps the author names of articles, and the e-mail and linked Telegram of each user (where an answer
 * to their support request goes), in step with auth's users (older versions ignored); the public reads
 * show the names at once.
 */
export function authorsConsumers(deps: ContentDeps): ContentConsumer[] {
  const afterCommit = () => deps.cache.changed();
  const upsertNames: ContentConsumer['handle'] = async (trx, event) => {
    const { data } = event;
    if (!('first_name' in data)) {
      // Deleted: the row stays without names, so an older update arriving late cannot restore them.
      await authorsRepository(trx).upsert({
        user_id: data.user_id,
        first_name: null,
        last_name: null,
        username: null,
        email: null,
        telegram_id: null,
        version: data.version,
      });
      return;
    }
    await authorsRepository(trx).upsert({
      user_id: data.user_id,
      first_name: data.first_name,
      last_name: data.last_name,
      username: data.username,
      email: data.email,
      telegram_id: data.telegram_id,
      version: data.version,
    });
  };
  return [
    { event: 'user.registered', handle: upsertNames, afterCommit },
    { event: 'user.updated', handle: upsertNames, afterCommit },
    { event: 'user.deleted', handle: upsertNames, afterCommit },
  ];
}
