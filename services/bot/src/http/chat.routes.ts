import type { ChatDoneEvent, ChatErrorEvent } from '@gpt/contracts';
import { answered, routeHandlers } from '@gpt/kit';
import type { Request, Response } from 'express';
import { conversationsRepository } from '../data/conversations.repository';
import type { BotDeps } from '../deps';
import { chatErrors } from '../domain/errors';
import {
  askOnWeb,
  conversationDetail,
  deleteConversation,
  exportConversation,
  getPreferences,
  listConversations,
  messageView,
  newConversation,
  renameConversation,
  searchConversations,
  stopAnswer,
  updatePreferences,
} from '../domain/web-chat';
import { texts } from '../telegram/texts';

/** The signed-in user's id from the verified token. */
const userOf = (claims: { sub: string } | undefined) => Number(claims?.sub);

/** A reader that is not running here looks at the database this often (another replica streams it). */
const POLL_MS = 500;
/** A comment line this often keeps proxies from closing a quiet stream. */
const KEEPALIVE_MS = 15_000;

/** Where a reader resumes: `Last-Event-ID` (the browser's reconnect), else `?lastEventId=`, else the start. */
function resumeOffset(req: Request, fromQuery: number | undefined): number {
  const header = Number(req.get('last-event-id'));
  return Number.isInteger(header) && header >= 0 ? header : (fromQuery ?? 0);
}

/**
 * An answer as server-sent events: the text from the offset the reader has, then as it grows, then its
 * end. In this process the answer's job tells each change at once; an answer another replica runs (or
 * one already ended) is read from the database. No text is sent twice: each delta's id is the offset after it.
 */
async function streamAnswer(
  deps: BotDeps,
  userId: number,
  answerId: string,
  from: number,
  req: Request,
  res: Response,
) {
  const conversations = conversationsRepository(deps.db);
  const first = await conversations.answer(userId, answerId);
  if (!first) throw chatErrors.answerNotFound();
  res.writeHead(200, {
    'Content-Type': 'text/event-stream; charset=utf-8',
    'Cache-Control': 'no-cache, no-transform',
    'X-Accel-Buffering': 'no',
    Connection: 'keep-alive',
  });
  res.flushHeaders();
  let sent = from;
  let closed = false;
  const write = (chunk: string) => {
    if (!closed) res.write(chunk);
  };
  const send = (text: string) => {
    if (text.length <= sent) return;
    write(`event: delta\nid: ${text.length}\ndata: ${JSON.stringify({ text: text.slice(sent) })}\n\n`);
    sent = text.length;
  };
  let timer: NodeJS.Timeout | undefined;
  const keepAlive = setInterval(() => write(': keep-alive\n\n'), KEEPALIVE_MS);
  let unlisten: (() => void) | null = null;
  const close = () => {
    if (closed) return;
    closed = true;
    clearInterval(keepAlive);
    clearTimeout(timer);
    unlisten?.();
    res.end();
  };
  req.on('close', close);

  const finish = async () => {
    const last = await conversations.answer(userId, answerId);
    if (last && last.status !== 'streaming') {
      send(last.text);
      const done: ChatDoneEvent = {
        status: last.status,
        cost: last.cost,
        model: last.model,
        message: messageView(last),
      };
      write(`event: done\nid: ${last.text.length}\ndata: ${JSON.stringify(done)}\n\n`);
    } else {
      const gone = chatErrors.answerNotFound();
      const refusal: ChatErrorEvent = { error: gone.message, code: gone.code };
      write(`event: error\ndata: ${JSON.stringify(refusal)}\n\n`);
    }
    close();
  };
  const poll = async () => {
    const now = await conversations.answer(userId, answerId);
    if (!now || now.status !== 'streaming') return finish();
    send(now.text);
    timer = setTimeout(() => void poll().catch(() => close()), POLL_MS);
  };

  unlisten = deps.answers.listen(answerId, {
    text: send,
    end: () => void finish().catch(() => close()),
  });
  if (!unlisten) await poll();
}

/** The web chat: the assistant's web door (docs/architecture.md, The assistant), for a signed-in user. */
export function chatRoutes(deps: BotDeps) {
  return routeHandlers('bot', {
    getChatConversations: async ({ claims }) => ({ items: await listConversations(deps, userOf(claims)) }),
    postChatConversations: ({ claims }) => newConversation(deps, userOf(claims)),
    getChatConversationsById: ({ claims, params }) => conversationDetail(deps, userOf(claims), params.id),
    patchChatConversationsById: ({ claims, params, body }) =>
      renameConversation(deps, userOf(claims), params.id, body.title),
    deleteChatConversationsById: ({ claims, params }) => deleteConversation(deps, userOf(claims), params.id),
    getChatConversationsByIdExport: async ({ claims, params, res }) => {
      const file = await exportConversation(deps, userOf(claims), params.id);
      res
        .status(200)
        .set('Content-Type', 'text/markdown; charset=utf-8')
        .set('Content-Disposition', `attachment; filename="${file.fileName}"`)
        .send(file.markdown);
      return answered;
    },
    postChatConversationsByIdMessages: async ({ claims, params, body }) => {
      const outcome = await askOnWeb(deps, userOf(claims), params.id, body.text);
      switch (outcome.kind) {
        case 'begun':
          return { answerId: outcome.answerId, message: outcome.message };
        case 'busy':
          throw chatErrors.answerRunning();
        case 'insufficient':
          throw chatErrors.insufficientCredits(texts.insufficient(outcome.needed, outcome.available));
        case 'rateLimited':
          throw chatErrors.rateLimited(texts.rateLimited(outcome.waitSec), outcome.waitSec);
        case 'noModels':
          throw chatErrors.noModels(texts.noModels);
      }
    },
    getChatAnswersByAnswerIdEvents: async ({ claims, params, query, req, res }) => {
      await streamAnswer(deps, userOf(claims), params.answerId, resumeOffset(req, query.lastEventId), req, res);
      return answered;
    },
    postChatAnswersByAnswerIdStop: ({ claims, params }) => stopAnswer(deps, userOf(claims), params.answerId),
    getChatSearch: ({ claims, query }) => searchConversations(deps, userOf(claims), query.q),
    getChatPreferences: ({ claims }) => getPreferences(deps, userOf(claims)),
    putChatPreferences: ({ claims, body }) => updatePreferences(deps, userOf(claims), body),
  });
}
