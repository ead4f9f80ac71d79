/** The pseudo Telegram user this browser plays in the sandbox, kept in localStorage. */
export interface SandboxUser {
  user_id: number;
  first_name: string;
}

const STORAGE_KEY = 'telegram-sandbox-user';

/** Ids far above today's real Telegram ids, so a sandbox user never meets a real one. */
const newUser = (): SandboxUser => ({
  user_id: 9_000_000_000 + Math.floor(Math.random() * 900_000_000),
  first_name: 'Гость',
});

function isSandboxUser(value: unknown): value is SandboxUser {
  const user = value as Partial<SandboxUser> | null;
  return (
    typeof user === 'object' &&
    user !== null &&
    Number.isSafeInteger(user.user_id) &&
    (user.user_id ?? 0) > 0 &&
    typeof user.first_name === 'string' &&
    user.first_name.trim() !== ''
  );
}

/** The stored user, or a new one (stored) when there is none or it is unreadable. */
export function loadSandboxUser(): SandboxUser {
  try {
    const stored: unknown = JSON.parse(localStorage.getItem(STORAGE_KEY) ?? 'null');
    if (isSandboxUser(stored)) return stored;
  } catch {
    // An unreadable entry is replaced below.
  }
  return resetSandboxUser();
}

/** A new user with a new, empty chat (to see the bot greet someone new). */
export function resetSandboxUser(): SandboxUser {
  const user = newUser();
  localStorage.setItem(STORAGE_KEY, JSON.stringify(user));
  return user;
}
