/** The unique constraint a failed insert or update ran into (PostgreSQL and PGlite both report SQLSTATE 23505). */
export function violatedUniqueConstraint(err: unknown): string | undefined {
  if (typeof err !== 'object' || err === null) return undefined;
  const { code, constraint } = err as { code?: unknown; constraint?: unknown };
  return code === '23505' ? (typeof constraint === 'string' ? constraint : '') : undefined;
}

/** Whether a unique index refused the row; with `constraint`, only that one. */
export function isUniqueViolation(err: unknown, constraint?: string): boolean {
  const violated = violatedUniqueConstraint(err);
  return violated !== undefined && (constraint === undefined || violated === constraint);
}

/** SQLSTATEs of a server that is going away or not there yet; class 08 (connection exceptions) counts too. */
const UNAVAILABLE_SQLSTATES = new Set(['57P01', '57P02', '57P03']);
/** Socket errors of reaching the server at all. */
const UNAVAILABLE_ERRNOS = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);
/** node-postgres reports a lost or unobtainable connection with these messages and no code. */
const UNAVAILABLE_MESSAGE =
  /^(Connection terminated|Client has encountered a connection error|Client was closed|timeout exceeded when trying to connect)/;

/**
 * Whether a query failed because the database server could not be reached or went away (a restart,
 * an outage), as opposed to a fault of the query: the request may well succeed a moment later.
 */
export function isDatabaseUnavailable(err: unknown): boolean {
  if (typeof err !== 'object' || err === null) return false;
  const { code, message } = err as { code?: unknown; message?: unknown };
  if (
    typeof code === 'string' &&
    (UNAVAILABLE_SQLSTATES.has(code) || code.startsWith('08') || UNAVAILABLE_ERRNOS.has(code))
  ) {
    return true;
  }
  return typeof message === 'string' && UNAVAILABLE_MESSAGE.test(message);
}
