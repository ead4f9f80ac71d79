import { randomBytes } from 'node:crypto';

/** Random URL-safe characters for the ids Telegram makes up (file ids, charge ids, invoice links). */
export const randomId = (bytes: number) => randomBytes(bytes).toString('base64url');
