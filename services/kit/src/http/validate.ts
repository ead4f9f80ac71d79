import type { z } from 'zod';

/** Parses input with a contract schema; a failure becomes a 400 through the error middleware. */
export function validate<S extends z.ZodType>(schema: S, value: unknown): z.infer<S> {
  return schema.parse(value);
}
