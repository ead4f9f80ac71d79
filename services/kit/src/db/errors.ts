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
