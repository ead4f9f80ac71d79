import { createHash, randomBytes, randomInt } from 'node:crypto';

/** The pseudo Telegram user a browser plays in the sandbox. */
export interface SandboxSession {
  userId: number;
  firstName: string;
}

/** Far above today's real Telegram ids, so a sandbox user never meets a real one; 2^48 keeps them safe integers. */
const SANDBOX_IDS = { min: 10_000_000_000, max: 2 ** 48 };

const keyOf = (secret: string) => createHash('sha256').update(secret).digest('base64url');

/**
 * The sandbox's users, each behind a secret only its browser holds (a cookie): at most `maxUsers`,
 * the least recently seen forgotten first, its chat with it (`onForget`).
 */
export function sandboxSessions(options: { maxUsers: number; onForget(userId: number): void }) {
  /** By the secret's hash; in order of last use (a Map keeps insertion order). */
  const sessions = new Map<string, SandboxSession>();

  return {
    /** A new user and the secret that names it. */
    create(firstName: string): { secret: string; session: SandboxSession } {
      while (sessions.size >= options.maxUsers) {
        const [oldestKey, oldest] = sessions.entries().next().value!;
        sessions.delete(oldestKey);
        options.onForget(oldest.userId);
      }
      const secret = randomBytes(32).toString('base64url');
      const session = { userId: randomInt(SANDBOX_IDS.min, SANDBOX_IDS.max), firstName };
      sessions.set(keyOf(secret), session);
      return { secret, session };
    },

    /** The user behind a secret, now the most recently seen; undefined when unknown or forgotten. */
    find(secret: string | undefined): SandboxSession | undefined {
      if (!secret) return undefined;
      const key = keyOf(secret);
      const session = sessions.get(key);
      if (session) {
        sessions.delete(key);
        sessions.set(key, session);
      }
      return session;
    },

    get size() {
      return sessions.size;
    },
  };
}
export type SandboxSessions = ReturnType<typeof sandboxSessions>;
