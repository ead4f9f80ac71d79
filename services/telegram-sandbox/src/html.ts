import type { MessageEntity } from 'grammy/types';

const ENTITY_TAGS: Record<string, MessageEntity['type']> = {
  b: 'bold',
  strong: 'bold',
  i: 'italic',
  em: 'italic',
  u: 'underline',
  ins: 'underline',
  s: 'strikethrough',
  strike: 'strikethrough',
  del: 'strikethrough',
  'tg-spoiler': 'spoiler',
  span: 'spoiler',
  a: 'text_link',
  code: 'code',
  pre: 'pre',
  blockquote: 'blockquote',
};

const NAMED_ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"' };

/** A message in Telegram's HTML that Telegram would refuse ("can't parse entities"). */
export class TelegramHtmlError extends Error {}

/**
 * Parses text in Telegram's HTML parse mode as the Bot API does: only its tags, balanced, with
 * `href` on links, nothing inside code except `<code>` in `<pre>`, `<` always a tag; `&` starts
 * an entity when it names one. Returns the visible text (trimmed, like a sent message) and its entities.
 */
export function parseTelegramHtml(html: string): { text: string; entities: MessageEntity[] } {
  const refuse = (reason: string, at: number) => {
    throw new TelegramHtmlError(
      `can't parse entities: ${reason} at byte offset ${Buffer.byteLength(html.slice(0, at))}`,
    );
  };
  let text = '';
  const entities: MessageEntity[] = [];
  const open: Array<{ tag: string; offset: number; entity: Partial<MessageEntity> }> = [];
  let i = 0;
  while (i < html.length) {
    const char = html[i]!;
    if (char === '&') {
      const entity = /^&(?:#(\d{1,7})|#x([0-9a-f]{1,6})|([a-z]+));/i.exec(html.slice(i, i + 12));
      const named = entity?.[3] === undefined ? undefined : NAMED_ENTITIES[entity[3].toLowerCase()];
      const code = entity?.[1] ? Number(entity[1]) : entity?.[2] ? parseInt(entity[2], 16) : undefined;
      if (entity && (named !== undefined || (code !== undefined && code <= 0x10ffff))) {
        text += named ?? String.fromCodePoint(code!);
        i += entity[0].length;
        continue;
      }
      text += char;
      i++;
      continue;
    }
    if (char !== '<') {
      text += char;
      i++;
      continue;
    }
    const end = html.indexOf('>', i);
    if (end < 0) refuse('Unclosed start tag', i);
    const inner = html.slice(i + 1, end);
    if (inner.startsWith('/')) {
      const name = inner.slice(1).trim().toLowerCase();
      const top = open.pop();
      if (!top) refuse(`Unexpected end tag`, i);
      if (top!.tag !== name) refuse(`Unmatched end tag, expected "</${top!.tag}>", found "</${name}>"`, i);
      const length = text.length - top!.offset;
      if (length > 0) entities.push({ ...top!.entity, offset: top!.offset, length } as MessageEntity);
    } else {
      const tagMatch = /^([a-z][a-z-]*)\s*([\s\S]*)$/i.exec(inner);
      const name = tagMatch?.[1]?.toLowerCase() ?? '';
      const type = ENTITY_TAGS[name];
      if (!type) refuse(`Unsupported start tag "${name}"`, i);
      const attributes = parseAttributes(tagMatch![2]!);
      const parent = open.at(-1);
      if (parent && (parent.tag === 'code' || (parent.tag === 'pre' && name !== 'code')))
        refuse(`Tag "${name}" is not allowed inside "${parent.tag}"`, i);
      const entity: Partial<MessageEntity> = { type: type! } as Partial<MessageEntity>;
      if (name === 'a') {
        const href = attributes.get('href');
        if (!href) refuse('Tag "a" must have attribute "href"', i);
        Object.assign(entity, { url: href });
      }
      if (name === 'span' && attributes.get('class') !== 'tg-spoiler')
        refuse('Tag "span" must have class "tg-spoiler"', i);
      if (name === 'code' && parent?.tag === 'pre') {
        const language = /^language-(.+)$/.exec(attributes.get('class') ?? '')?.[1];
        if (language) Object.assign(parent.entity, { language });
      }
      open.push({ tag: name, offset: text.length, entity });
    }
    i = end + 1;
  }
  if (open.length > 0) refuse(`Can't find end tag corresponding to start tag "${open.at(-1)!.tag}"`, html.length);
  // A code entity inside pre is part of the pre entity, not one of its own.
  const pres = entities.filter((entity) => entity.type === 'pre');
  const visible = entities.filter((entity) => !(entity.type === 'code' && pres.some((pre) => contains(pre, entity))));
  const leading = text.length - text.trimStart().length;
  const trimmed = text.trim();
  return {
    text: trimmed,
    entities: visible
      .map((entity) => ({ ...entity, offset: entity.offset - leading }))
      .map((entity) => ({ ...entity, length: Math.min(entity.length, trimmed.length - Math.max(entity.offset, 0)) }))
      .filter((entity) => entity.offset >= 0 && entity.length > 0)
      .sort((a, b) => a.offset - b.offset || b.length - a.length),
  };
}

function contains(outer: MessageEntity, inner: MessageEntity): boolean {
  return outer.offset <= inner.offset && outer.offset + outer.length >= inner.offset + inner.length;
}

function parseAttributes(source: string): Map<string, string> {
  const attributes = new Map<string, string>();
  for (const match of source.matchAll(/([a-z-]+)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))/gi)) {
    const value = match[2] ?? match[3] ?? match[4] ?? '';
    attributes.set(
      match[1]!.toLowerCase(),
      value.replace(/&(lt|gt|amp|quot);/g, (_, name: string) => NAMED_ENTITIES[name]!),
    );
  }
  return attributes;
}
