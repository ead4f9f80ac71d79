import type { SandboxMessage } from '@gpt/contracts';
import type { ReactNode } from 'react';

type Entity = SandboxMessage['entities'][number];

/** Links open only to the web or to Telegram; anything else (javascript:, data:) stays plain text. */
const SAFE_LINK = /^(https?:|tg:)/i;

function wrap(entity: Entity, children: ReactNode[], key: number): ReactNode {
  switch (entity.type) {
    case 'bold':
      return <strong key={key}>{children}</strong>;
    case 'italic':
      return <em key={key}>{children}</em>;
    case 'underline':
      return <u key={key}>{children}</u>;
    case 'strikethrough':
      return <s key={key}>{children}</s>;
    case 'code':
      return <code key={key}>{children}</code>;
    case 'pre':
      return (
        <pre key={key} className="tg-pre">
          <code>{children}</code>
        </pre>
      );
    case 'blockquote':
      return (
        <blockquote key={key} className="tg-quote">
          {children}
        </blockquote>
      );
    case 'spoiler':
      return (
        <span key={key} className="tg-spoiler">
          {children}
        </span>
      );
    case 'text_link':
      return entity.url && SAFE_LINK.test(entity.url) ? (
        <a key={key} href={entity.url} target="_blank" rel="noopener noreferrer">
          {children}
        </a>
      ) : (
        <span key={key}>{children}</span>
      );
    default:
      return <span key={key}>{children}</span>;
  }
}

/** A hyphenated Latin word: a model's name (gpt-4o-mini), «e-mail». */
const HYPHENATED = /([A-Za-z0-9][A-Za-z0-9.]*(?:-[A-Za-z0-9.]+)+)/;

/** Plain text whose hyphenated Latin words never break at a hyphen (never «gpt-» on one line, «4o-mini» on the next). */
function plain(text: string, key: number): ReactNode[] {
  return text.split(HYPHENATED).map((part, index) =>
    index % 2 === 1 ? (
      <span key={`${key}-${index}`} className="model-name">
        {part}
      </span>
    ) : (
      part
    ),
  );
}

/** The text between `start` and `end` with the entities inside it (sorted, outer ones first) applied. */
function render(text: string, start: number, end: number, entities: Entity[]): ReactNode[] {
  const out: ReactNode[] = [];
  let position = start;
  let index = 0;
  while (index < entities.length) {
    const entity = entities[index]!;
    const from = Math.max(entity.offset, position);
    const to = Math.min(entity.offset + entity.length, end);
    if (from > position) out.push(...plain(text.slice(position, from), position));
    let next = index + 1;
    const inner: Entity[] = [];
    while (next < entities.length && entities[next]!.offset < to) inner.push(entities[next++]!);
    if (to > from) out.push(wrap(entity, render(text, from, to, inner), from));
    position = Math.max(position, to);
    index = next;
  }
  if (position < end) out.push(...plain(text.slice(position, end), position));
  return out;
}

/**
 * A message's text with Telegram's formatting drawn from its entities, as Telegram's own apps do:
 * React elements around plain text, so nothing in a message can become markup.
 */
export function MessageText({ text, entities }: { text: string; entities: Entity[] }) {
  const sorted = [...entities].sort((a, b) => a.offset - b.offset || b.length - a.length);
  return <div className="tg-text">{render(text, 0, text.length, sorted)}</div>;
}
