import { describe, expect, test } from '@jest/globals';
import { AnswerMismatchError, type BodyRefusal, routeCaller, type RouteRequest } from '../src/client';

/** A transport that keeps what it was asked and answers `answer`. */
function recording(answer: unknown) {
  const sent: RouteRequest[] = [];
  const transport = async (request: RouteRequest) => {
    sent.push(request);
    return answer;
  };
  return { sent, transport };
}

class Refused extends Error {}
const invalidBody = (refusal: BodyRefusal) => new Refused(refusal.error);

const hold = {
  hold_id: '7d7f2d8e-3d5c-4a8e-9d51-0c2f3c4b5a69',
  amount: 12,
  available_credits: 30,
  expires_at: '2026-01-01T00:00:00.000Z',
};

describe('callRoute (docs/architecture.md, Contracts)', () => {
  test('takes the method and the path from the route, with its parameters filled in and its query appended', async () => {
    const { sent, transport } = recording(null);
    const callRoute = routeCaller(transport, { checkAnswers: false, invalidBody });
    await callRoute('deleteBotHoldsById', { params: { id: 'a b' }, headers: { 'X-Bot-Key': 'k' } });
    await callRoute('getBotPayments', { query: { telegram_id: 42, limit: 5, page: undefined } });
    expect(sent.map(({ method, path, headers }) => ({ method, path, headers }))).toEqual([
      { method: 'DELETE', path: '/api/bot/holds/a%20b', headers: { 'X-Bot-Key': 'k' } },
      { method: 'GET', path: '/api/bot/payments?telegram_id=42&limit=5', headers: {} },
    ]);
    expect(sent[0]!.route.service).toBe('billing');
  });

  test('refuses a body its route refuses before sending it, with the contract’s message', async () => {
    const { sent, transport } = recording(hold);
    const callRoute = routeCaller(transport, { checkAnswers: true, invalidBody });
    await expect(callRoute('postBotHolds', { body: { telegram_id: 42, amount: -1 } })).rejects.toThrow(
      new Refused('amount должен быть не меньше 1'),
    );
    expect(sent).toEqual([]);
    await callRoute('postBotHolds', { body: { telegram_id: 42, amount: 12 } });
    expect(sent[0]!.body).toEqual({ telegram_id: 42, amount: 12 });
  });

  test('checks the answer against the route’s response schema only where answers are checked', async () => {
    const wrong = { hold_id: 'not-a-uuid' };
    const checking = routeCaller(recording(wrong).transport, { checkAnswers: true, invalidBody });
    const answer = checking('postBotHolds', { body: { telegram_id: 42, amount: 12 } });
    await expect(answer).rejects.toBeInstanceOf(AnswerMismatchError);
    await expect(answer).rejects.toThrow(
      /^POST \/api\/bot\/holds: the answer does not match its contract schema — hold_id: /,
    );
    const right = routeCaller(recording(hold).transport, { checkAnswers: true, invalidBody });
    await expect(right('postBotHolds', { body: { telegram_id: 42, amount: 12 } })).resolves.toEqual(hold);
    const trusting = routeCaller(recording(wrong).transport, { checkAnswers: false, invalidBody });
    await expect(trusting('postBotHolds', { body: { telegram_id: 42, amount: 12 } })).resolves.toEqual(wrong);
  });

  test('names routes by their contract id: an unknown one, a missing parameter or a stray body do not compile', () => {
    const callRoute = routeCaller(recording(null).transport, { checkAnswers: false, invalidBody });
    const calls = [
      // @ts-expect-error no such route
      () => callRoute('getBotHoldz'),
      // @ts-expect-error the path's parameter is missing
      () => callRoute('deleteBotHoldsById', {}),
      // @ts-expect-error a GET takes no body
      () => callRoute('getBotModels', { body: {} }),
    ];
    expect(calls).toHaveLength(3);
  });
});
