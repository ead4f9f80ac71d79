/** A page of this site: one slash, then no slash or backslash (`//x` and `/\x` lead to other hosts). */
const SITE_PATH = /^\/(?![/\\])[^\s\\]*$/;
const MAILTO = /^mailto:[^\s@]+@[^\s@]+$/i;
const WEB = /^https?:\/\//i;

/** The addresses an article may link to: http(s) with a host, mailto with an address, or a page of this site. */
export function isAllowedHref(href: string): boolean {
  if (SITE_PATH.test(href) || MAILTO.test(href)) return true;
  if (!WEB.test(href) || /\s/.test(href)) return false;
  try {
    return new URL(href).hostname !== '';
  } catch {
    return false;
  }
}

export const LINK_RULE = 'Ссылка должна начинаться с http://, https://, mailto: или / (страница сайта)';
