import type { ChatTurn, ContentPart } from '../engine/provider';
import type { Turn } from '../data/turns.repository';

/** A safe upper bound of tokens in a text: one token per two characters, plus the message overhead. */
export const estimateTokens = (text: string) => Math.ceil(text.length / 2) + 4;
/** What one attached image may cost a vision model, at most. */
export const IMAGE_INPUT_TOKENS = 1500;

const partsTokens = (content: string | ContentPart[]) =>
  typeof content === 'string'
    ? estimateTokens(content)
    : content.reduce((sum, part) => sum + (part.type === 'text' ? estimateTokens(part.text) : IMAGE_INPUT_TOKENS), 0);

export const SYSTEM_PROMPT =
  'Ты — полезный ассистент в Telegram. Отвечай на языке собеседника, по существу; форматируй Markdown: **жирный**, списки, блоки кода.';

/**
 * The messages sent to the model: the system prompt, as much of the conversation so far as fits
 * the token budget (newest first, whole turns only), and the new message. Also answers the
 * estimated input tokens, an upper bound the hold is placed on.
 */
export function buildPrompt(history: Turn[], content: string | ContentPart[], budget: number) {
  const fixed = estimateTokens(SYSTEM_PROMPT) + partsTokens(content);
  let used = fixed;
  const kept: Turn[] = [];
  for (const turn of [...history].reverse()) {
    const cost = estimateTokens(turn.content);
    if (used + cost > budget) break;
    kept.unshift(turn);
    used += cost;
  }
  // A user turn first: some APIs refuse a conversation that starts with the assistant.
  while (kept[0]?.role === 'assistant') used -= estimateTokens(kept.shift()!.content);
  const messages: ChatTurn[] = [
    { role: 'system', content: SYSTEM_PROMPT },
    ...kept.map((turn) => ({ role: turn.role, content: turn.content })),
    { role: 'user', content },
  ];
  return { messages, estimatedInputTokens: used };
}
