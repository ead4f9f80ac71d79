import type { IncomingMessage, ServerResponse } from 'node:http';

/** A Bot API refusal, answered as `{ ok: false, error_code, description }` with the same HTTP status. */
export class BotApiError extends Error {
  constructor(
    readonly code: number,
    description: string,
    readonly parameters?: { retry_after: number },
  ) {
    super(description);
  }
}

export const badRequest = (description: string) => new BotApiError(400, `Bad Request: ${description}`);

/** A Bot API method: its answer, or a BotApiError thrown. */
export type Handler = (params: Params) => unknown;

/** An upload from a multipart body. */
export interface UploadedFile {
  upload: true;
  bytes: Buffer;
  name: string;
  type: string;
}

/** Telegram takes uploads of up to 50 MB. */
const MAX_BODY_BYTES = 50 * 1024 * 1024;

/** Fields that stay strings in form bodies even when they look like numbers or JSON. */
const STRING_FIELDS = new Set([
  'text',
  'caption',
  'url',
  'secret_token',
  'callback_query_id',
  'file_id',
  'parse_mode',
  'action',
  'photo',
  'document',
  'data',
]);

/** Decoded parameters with readers that refuse what Telegram refuses. */
export class Params {
  constructor(readonly values: Record<string, unknown>) {}

  string(name: string): string | undefined {
    const value = this.values[name];
    return value === undefined || value === null ? undefined : String(value);
  }

  number(name: string): number | undefined {
    const value = this.values[name];
    if (value === undefined || value === null || value === '') return undefined;
    const number = Number(value);
    if (!Number.isFinite(number)) throw badRequest(`invalid ${name} specified`);
    return number;
  }

  requiredNumber(name: string): number {
    const value = this.number(name);
    if (value === undefined) throw badRequest(`${name} is empty`);
    return value;
  }

  object<T>(name: string): T | undefined {
    const value = this.values[name];
    if (typeof value !== 'string') return value as T | undefined;
    try {
      return JSON.parse(value) as T;
    } catch {
      throw badRequest(`can't parse ${name} JSON object`);
    }
  }
}

export function isUpload(value: unknown): value is UploadedFile {
  return typeof value === 'object' && value !== null && 'upload' in value;
}

/**
 * Query string, then the body: JSON, form-urlencoded or multipart (with `attach://` references
 * resolved). A JSON body an HTTP framework already parsed (as `req.body`) is taken as it is.
 */
export async function readParams(
  req: IncomingMessage & { body?: unknown },
  url: URL,
): Promise<Record<string, unknown>> {
  const values: Record<string, unknown> = {};
  const fromForm = (key: string, value: string) => {
    values[key] = STRING_FIELDS.has(key) ? value : parseLoose(value);
  };
  url.searchParams.forEach((value, key) => fromForm(key, value));
  if (typeof req.body === 'object' && req.body !== null) return { ...values, ...req.body };
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw new BotApiError(413, 'Request Entity Too Large');
    chunks.push(chunk as Buffer);
  }
  const body = Buffer.concat(chunks);
  if (body.length === 0) return values;

  const type = req.headers['content-type'] ?? '';
  if (type.startsWith('application/json')) return { ...values, ...(JSON.parse(body.toString('utf8')) as object) };
  if (type.startsWith('application/x-www-form-urlencoded')) {
    new URLSearchParams(body.toString('utf8')).forEach((value, key) => fromForm(key, value));
    return values;
  }
  if (type.startsWith('multipart/form-data')) {
    const form = await new Request('http://multipart', {
      method: 'POST',
      headers: { 'content-type': type },
      body,
    }).formData();
    const uploads = new Map<string, UploadedFile>();
    for (const [key, value] of form) {
      if (typeof value === 'string') fromForm(key, value);
      else {
        const upload = {
          upload: true as const,
          bytes: Buffer.from(await value.arrayBuffer()),
          name: value.name,
          type: value.type,
        };
        uploads.set(key, upload);
        values[key] = upload;
      }
    }
    for (const [key, value] of Object.entries(values)) {
      const attached = typeof value === 'string' && /^attach:\/\/(.+)$/.exec(value);
      if (attached) values[key] = uploads.get(attached[1]!);
    }
    return values;
  }
  throw badRequest('unsupported content type');
}

function parseLoose(value: string): unknown {
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}

export function answer(res: ServerResponse, outcome: unknown): void {
  if (res.writableEnded || res.destroyed) return;
  const body =
    outcome instanceof BotApiError
      ? {
          ok: false,
          error_code: outcome.code,
          description: outcome.message,
          ...(outcome.parameters ? { parameters: outcome.parameters } : {}),
        }
      : { ok: true, result: outcome };
  const status = outcome instanceof BotApiError ? outcome.code : 200;
  res.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(body));
}
