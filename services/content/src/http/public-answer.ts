import type { Request, Response } from 'express';
import type { Answer } from '../domain/public-articles';

/**
 * Sends a public answer with its ETag: a client (or proxy) that already holds it gets 304 and no
 * body. `no-cache` makes every reuse ask first, so an edit shows on the next request.
 */
export function sendAnswer(req: Request, res: Response, answer: Answer): void {
  res.setHeader('ETag', answer.etag);
  res.setHeader('Cache-Control', 'public, no-cache');
  const held = req.headers['if-none-match'];
  if (held && held.split(',').some((tag) => tag.trim().replace(/^W\//, '') === answer.etag)) {
    res.status(304).end();
    return;
  }
  res.type('application/json').send(answer.body);
}
