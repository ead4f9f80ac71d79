import type { ChatTurn, ContentPart } from '../engine/provider';
import type { Turn } from '../data/conversations.repository';

/** A safe upper bound of tokens in that many characters: one token per two, plus the message overhead. */
export const estimateTokensOfLength = (characters: number) => Math.ceil(characters / 2) + 4;
export const estimateTokens = (text: string) => estimateTokensOfLength(text.length);
/** What one attached image may cost a vision model, at most. */
export const IMAGE_INPUT_TOKENS = 1500;

const partsTokens = (content: string | ContentPart[]) =>
  typeof content === 'string'
    ? estimateTokens(content)
    : content.reduce((sum, part) => sum + (part.type === 'text' ? estimateTokens(part.text) : IMAGE_INPUT_TOKENS), 0);

/** The system prompt when there is no chat mode at all (the admin deleted or turned off every one). */
export const SYSTEM_PROMPT =
  'Ты — полезный ассистент в Telegram. Отвечай на языке собеседника, по существу; форматируй Markdown: **жирный**, списки, блоки кода.';

/** What frames a call besides the conversation. */
export interface PromptFrame {
  /** The mode's prompt, then the user's own instructions, if any. */
  system: string[];
  /** The bot's earlier message the user replied to (it may be from an earlier conversation). */
  repliedTo: string | null;
}

/** The longest personal instructions a user may give. */
export const INSTRUCTIONS_MAX_CHARS = 1000;

export const instructionsPrompt = (instructions: string) =>
  `Личные инструкции пользователя (учитывай их в каждом ответе):\n${instructions}`;

export const repliedToPrompt = (text: string) =>
  `Пользователь отвечает на твоё более раннее сообщение:\n"""\n${text}\n"""`;

/** The frame of a user's calls: their mode's prompt first (the product's own without modes), then their instructions. */
export function promptFrame(
  modePrompt: string | undefined,
  instructions: string | null,
  repliedTo: string | null,
): PromptFrame {
  return {
    system: [modePrompt ?? SYSTEM_PROMPT, ...(instructions ? [instructionsPrompt(instructions)] : [])],
    repliedTo,
  };
}

/**
 * The messages sent to the model: the system prompts, as much of the conversation so far as fits
 * the token budget (newest first, whole turns only), the message replied to, and the new message.
 * Also answers the estimated input tokens, an upper bound the hold is placed on.
 */
export function buildPrompt(
  history: Turn[],
  content: string | ContentPart[],
  budget: number,
  frame: PromptFrame = promptFrame(undefined, null, null),
) {
  const framing = [...frame.system, ...(frame.repliedTo ? [repliedToPrompt(frame.repliedTo)] : [])];
  const fixed = framing.reduce((sum, text) => sum + estimateTokens(text), 0) + partsTokens(content);
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
    ...frame.system.map((text) => ({ role: 'system' as const, content: text })),
    ...kept.map((turn) => ({ role: turn.role, content: turn.content })),
    ...(frame.repliedTo ? [{ role: 'system' as const, content: repliedToPrompt(frame.repliedTo) }] : []),
    { role: 'user', content },
  ];
  return { messages, estimatedInputTokens: used };
}
