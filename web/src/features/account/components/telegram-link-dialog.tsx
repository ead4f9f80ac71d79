import Button from 'react-bootstrap/Button';
import Modal from 'react-bootstrap/Modal';

import { BotLinkButton } from '@/components/ui/bot-link-button';
import { refreshSession } from '@/lib/session/session';

/**
 * How to link Telegram: the button opens the bot's /link (t.me/<bot>?start=link), the bot sends a
 * personal link, the user follows it while signed in.
 */
export function TelegramLinkDialog({ show, onClose }: { show: boolean; onClose: () => void }) {
  function onOpenBot() {
    onClose();
    refreshSession().catch((err: unknown) => console.error('Profile refresh failed', err));
  }

  return (
    <Modal show={show} onHide={onClose} centered>
      <Modal.Header closeButton closeLabel="Закрыть">
        <Modal.Title>Связь с Telegram</Modal.Title>
      </Modal.Header>
      <Modal.Body>
        <p>Свяжите аккаунт сайта с Telegram, чтобы у них был общий баланс кредитов и общие подписки:</p>
        <ol className="mb-0">
          <li className="mb-2">
            Нажмите «Открыть бота» и в Telegram — «Старт»: бот пришлёт персональную ссылку (или отправьте ему команду
            /link).
          </li>
          <li>Перейдите по ссылке в этом браузере, оставаясь в своём аккаунте на сайте.</li>
        </ol>
      </Modal.Body>
      <Modal.Footer>
        <Button variant="outline-secondary" onClick={onClose}>
          Закрыть
        </Button>
        <BotLinkButton variant="primary" start="link" onClick={onOpenBot} />
      </Modal.Footer>
    </Modal>
  );
}
