import Button from 'react-bootstrap/Button';

import { Icon } from '@/components/ui/icons';
import { useToast } from '@/components/ui/toasts';

/** Telegram's share link: the page address and the title (docs/product.md, Screens). */
export function telegramShareUrl(url: string, title: string): string {
  return `https://t.me/share/url?${new URLSearchParams({ url, text: title }).toString()}`;
}

/** Share to Telegram and copy the link; a failed copy is only logged (docs/product.md, Errors). */
export function ArticleShare({ title }: { title: string }) {
  const toast = useToast();
  const url = window.location.href;

  async function copyLink() {
    try {
      await navigator.clipboard.writeText(url);
      toast.success('Ссылка скопирована');
    } catch (err) {
      console.error('Copy link failed', err);
    }
  }

  return (
    <div className="d-flex flex-wrap gap-2">
      <a
        className="btn btn-primary d-inline-flex align-items-center"
        href={telegramShareUrl(url, title)}
        target="_blank"
        rel="noopener noreferrer"
      >
        <Icon name="send" size={18} className="me-2" />
        Поделиться в Telegram
      </a>
      <Button variant="outline-secondary" onClick={copyLink} className="d-inline-flex align-items-center">
        <Icon name="file" size={18} className="me-2" />
        Копировать ссылку
      </Button>
    </div>
  );
}
