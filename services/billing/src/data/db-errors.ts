/** PostgreSQL's foreign_key_violation (23503), e.g. deleting a tariff someone was just given. */
export function isForeignKeyViolation(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { code?: unknown }).code === '23503';
}
