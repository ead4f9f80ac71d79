import type { Response } from 'express';
import type { z } from 'zod';
import { badRequest } from '../errors';

/**
 * Parses input with a contract schema; a failure becomes a 400 through the error middleware.
 * Text with U+0000 is refused first: PostgreSQL cannot store it, so it would otherwise fail as a 500.
 */
export function validate<S extends z.ZodType>(schema: S, value: unknown): z.infer<S> {
  if (containsNul(value)) throw badRequest('Текст не может содержать нулевой символ (U+0000)', 'nul_character');
  return schema.parse(value);
}

/**
 * Answers a route's body checked against its contract schema (the route's `response` in the
 * OpenAPI list), the one way every route answers JSON: a field the contract does not name is
 * dropped, a wrong one fails here instead of reaching a client.
 */
export function respond<S extends z.ZodType>(res: Response, schema: S, body: z.input<S>, status = 200): void {
  res.status(status).json(schema.parse(body));
}

function containsNul(value: unknown): boolean {
  if (typeof value === 'string') return value.includes('\u0000');
  if (typeof value !== 'object' || value === null) return false;
  for (const [key, item] of Object.entries(value)) if (key.includes('\u0000') || containsNul(item)) return true;
  return false;
}
