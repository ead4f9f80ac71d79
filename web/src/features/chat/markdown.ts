import DOMPurify from 'dompurify';
import MarkdownIt from 'markdown-it';

/**
 * A model's answer as HTML: Markdown with raw HTML off (markdown-it escapes it, and refuses `javascript:` links),
 * links opened in a new tab, each code block framed with a «Копировать» button; the result goes through DOMPurify
 * once more before it reaches the page (docs/security.md, «Stored text stays inert»).
 */
const markdown = new MarkdownIt({ html: false, linkify: true, breaks: true });

const renderFence = markdown.renderer.rules.fence!;
markdown.renderer.rules.fence = (tokens, index, options, env, self) => {
  const language = tokens[index]!.info.trim().split(/\s+/)[0] ?? '';
  const label = language ? `<span class="chat-code-language">${markdown.utils.escapeHtml(language)}</span>` : '';
  return (
    `<div class="chat-code">` +
    `<div class="chat-code-bar">${label}<button type="button" class="btn btn-sm btn-light chat-copy" data-copy-code>Копировать</button></div>` +
    renderFence(tokens, index, options, env, self) +
    `</div>`
  );
};

const renderLinkOpen =
  markdown.renderer.rules.link_open ??
  ((tokens, index, options, _env, self) => self.renderToken(tokens, index, options));
markdown.renderer.rules.link_open = (tokens, index, options, env, self) => {
  tokens[index]!.attrSet('target', '_blank');
  tokens[index]!.attrSet('rel', 'noopener noreferrer nofollow');
  return renderLinkOpen(tokens, index, options, env, self);
};

export function renderMarkdown(text: string): string {
  return DOMPurify.sanitize(markdown.render(text), { ADD_ATTR: ['target'] });
}
