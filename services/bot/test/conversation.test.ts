import { describe, expect, test } from '@jest/globals';
import { buildPrompt, estimateTokens, SYSTEM_PROMPT } from '../src/domain/conversation';

const turn = (role: 'user' | 'assistant', length: number, mark: string) => ({ role, content: mark.repeat(length) });

describe('the prompt sent to the model', () => {
  test('keeps the newest whole turns that fit the token budget, after the system prompt and before the new message', () => {
    const history = [
      turn('user', 400, 'a'),
      turn('assistant', 400, 'b'),
      turn('user', 400, 'c'),
      turn('assistant', 400, 'd'),
    ];
    const fixed = estimateTokens(SYSTEM_PROMPT) + estimateTokens('Новый вопрос');
    // Room for exactly the two newest turns (204 tokens each by the estimate).
    const { messages, estimatedInputTokens } = buildPrompt(history, 'Новый вопрос', fixed + 2 * 204 + 10);
    expect(messages.map((message) => [message.role, String(message.content)[0]])).toEqual([
      ['system', SYSTEM_PROMPT[0]],
      ['user', 'c'],
      ['assistant', 'd'],
      ['user', 'Н'],
    ]);
    expect(estimatedInputTokens).toBe(fixed + 2 * 204);
  });

  test('never starts the conversation with the assistant: a lone answer that fits without its question is left out', () => {
    const history = [turn('user', 400, 'a'), turn('assistant', 400, 'b')];
    const fixed = estimateTokens(SYSTEM_PROMPT) + estimateTokens('?');
    const { messages, estimatedInputTokens } = buildPrompt(history, '?', fixed + 300);
    expect(messages.map((message) => message.role)).toEqual(['system', 'user']);
    expect(estimatedInputTokens).toBe(fixed);
  });
});
