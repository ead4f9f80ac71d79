import { type ChatConversationDetail, type ChatMessage } from '@gpt/contracts';
import { useEffect, useRef, useState } from 'react';

import { type AnswerEnd, followAnswer } from './api/follow-answer';

/** The answer being written in the open conversation, as far as this page has it. */
export interface LiveAnswer {
  answerId: string;
  text: string;
  ended: boolean;
}

/** How a followed answer ended: as the stream says, with a refusal, or gone (nothing to tell). */
export type LiveAnswerEnd = AnswerEnd | { refusal: string } | { gone: true };

/** The stored message of a running answer: the last assistant message still being written. */
export function streamingMessageOf(thread: ChatConversationDetail | undefined): ChatMessage | undefined {
  return thread?.messages.findLast((message) => message.role === 'assistant' && message.status === 'streaming');
}

/**
 * Follows the conversation's running answer (`running.answerId`) from the text the page already shows: after a
 * reload the stored text so far is on screen at once and the stream goes on from its length, no text twice.
 * `onEnd` runs when the answer is done or stopped, with the refusal the stream ended with, or when the answer is
 * gone (the page then reads the conversation again).
 */
export function useLiveAnswer(
  thread: ChatConversationDetail | undefined,
  onEnd: (end: LiveAnswerEnd) => void,
): LiveAnswer | null {
  const [live, setLive] = useState<LiveAnswer | null>(null);
  const answerId = thread?.running?.answerId ?? null;
  const latest = useRef({ thread, onEnd });
  useEffect(() => {
    latest.current = { thread, onEnd };
  });

  useEffect(() => {
    if (!answerId) return undefined;
    const shown = streamingMessageOf(latest.current.thread)?.text ?? '';
    setLive({ answerId, text: shown, ended: false });
    const update = (change: (current: LiveAnswer) => LiveAnswer) =>
      setLive((current) => (current?.answerId === answerId ? change(current) : current));
    const ended = (end: LiveAnswerEnd) => {
      update((current) => ({ ...current, ended: true }));
      latest.current.onEnd(end);
    };
    return followAnswer(answerId, shown.length, {
      onText: (text) => update((current) => ({ ...current, text: current.text + text })),
      onEnd: ended,
      onRefusal: (refusal) => ended({ refusal }),
      onGone: () => ended({ gone: true }),
    });
  }, [answerId]);

  // Once the conversation read again has the answer stored, the stored one is shown.
  return live?.answerId === answerId ? live : null;
}
