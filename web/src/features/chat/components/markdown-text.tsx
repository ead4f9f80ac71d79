import { useMemo, type MouseEvent } from 'react';

import { useToast } from '@/components/ui/toasts';

import { renderMarkdown } from '../markdown';

const COPIED_MS = 2000;

/** An answer drawn from its Markdown; a code block's «Копировать» puts its code on the clipboard. */
export function MarkdownText({ text }: { text: string }) {
  const toast = useToast();
  const html = useMemo(() => renderMarkdown(text), [text]);

  const onClick = (event: MouseEvent<HTMLDivElement>) => {
    const button = (event.target as HTMLElement).closest<HTMLButtonElement>('[data-copy-code]');
    const code = button?.closest('.chat-code')?.querySelector('code')?.textContent;
    if (!button || code === undefined || code === null) return;
    navigator.clipboard.writeText(code).then(
      () => {
        button.textContent = 'Скопировано';
        setTimeout(() => (button.textContent = 'Копировать'), COPIED_MS);
      },
      () => toast.error('Не удалось скопировать', 'Выделите код и скопируйте его вручную.'),
    );
  };

  // The HTML is markdown-it's with raw HTML off, sanitized by DOMPurify (../markdown.ts).
  return <div className="chat-markdown" onClick={onClick} dangerouslySetInnerHTML={{ __html: html }} />;
}
