import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { Envelope, EventSchemaMap } from './types';

/** The envelope every event travels in; `data` is checked separately against the event's own schema. */
export const envelopeSchema = z.object({
  id: z.uuid(),
  type: z.string().min(1),
  occurredAt: z.iso.datetime({ offset: true }),
  producer: z.string().min(1),
  data: z.unknown(),
});

/** Validates `data` against the schema of `type` and wraps it; throws the ZodError of a bad payload. */
export function makeEnvelope(schemas: EventSchemaMap, producer: string, type: string, data: unknown): Envelope {
  const schema = schemaOf(schemas, type);
  if (!schema) throw new Error(`Unknown event type "${type}": it has no schema`);
  return { id: randomUUID(), type, occurredAt: new Date().toISOString(), producer, data: schema.parse(data) };
}

export type ParsedMessage = { ok: true; envelope: Envelope } | { ok: false; reason: string; envelope: Envelope };

/**
 * Reads a message body as an envelope whose data fits its type's schema. A message that does
 * not is poisoned: retrying cannot fix it. Its `envelope` is then a best-effort reading for logs and waitFor.
 */
export function parseMessage(schemas: EventSchemaMap, body: string): ParsedMessage {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    return { ok: false, reason: 'poisoned: the body is not JSON', envelope: bestEffort(body) };
  }
  const envelope = envelopeSchema.safeParse(json);
  if (!envelope.success) {
    return { ok: false, reason: `poisoned: bad envelope: ${summarize(envelope.error)}`, envelope: bestEffort(json) };
  }
  const schema = schemaOf(schemas, envelope.data.type);
  if (!schema) {
    return { ok: false, reason: `poisoned: unknown event type "${envelope.data.type}"`, envelope: envelope.data };
  }
  const data = schema.safeParse(envelope.data.data);
  if (!data.success) {
    return { ok: false, reason: `poisoned: bad data: ${summarize(data.error)}`, envelope: envelope.data };
  }
  return { ok: true, envelope: { ...envelope.data, data: data.data } };
}

function schemaOf(schemas: EventSchemaMap, type: string): z.ZodType | undefined {
  return Object.hasOwn(schemas, type) ? schemas[type] : undefined;
}

function summarize(error: z.ZodError): string {
  return error.issues.map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`).join('; ');
}

function bestEffort(value: unknown): Envelope {
  const record = typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
  const text = (key: string) => (typeof record[key] === 'string' ? record[key] : '');
  return {
    id: text('id'),
    type: text('type'),
    occurredAt: text('occurredAt'),
    producer: text('producer'),
    data: 'data' in record ? record.data : value,
  };
}
