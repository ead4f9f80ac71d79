import type { IncomingMessage, ServerResponse } from 'node:http';

/** The whole body of a request to a fake server. */
export function readRequestBytes(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/** The whole body of a request to a fake server, as UTF-8 text. */
export async function readRequestBody(req: IncomingMessage): Promise<string> {
  return (await readRequestBytes(req)).toString('utf8');
}

/** A JSON answer of a fake server. */
export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(body));
}
