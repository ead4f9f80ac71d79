import { createHash } from 'node:crypto';
import type { KeyValue } from '@gpt/kit';

/** Who is reading: the client address the gateway forwards and the browser's user agent. */
export interface Visitor {
  ip: string;
  userAgent: string;
}

/**
 * Decides whether a read is a new view: the same visitor reading the same article again within
 * the window is not counted again. The mark lives in Redis (or the embedded in-memory store).
 */
export function viewCounter(kv: KeyValue, windowSec: number) {
  return {
    async isNewView(articleId: number, visitor: Visitor): Promise<boolean> {
      const fingerprint = createHash('sha256').update(`${visitor.ip}\n${visitor.userAgent}`).digest('hex').slice(0, 32);
      const key = `content:view:${articleId}:${fingerprint}`;
      if (kv.redis) return (await kv.redis.set(key, '1', 'EX', windowSec, 'NX')) === 'OK';
      // The in-memory store serves one process, where nothing runs between these two calls' effects.
      if ((await kv.get(key)) !== null) return false;
      await kv.set(key, '1', windowSec);
      return true;
    },
  };
}
