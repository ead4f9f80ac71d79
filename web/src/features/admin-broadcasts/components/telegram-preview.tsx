import type { BroadcastPreviewResponse } from '@gpt/contracts';

/**
 * The broadcast message as Telegram shows it: the photo, the text (the server's Telegram HTML — only
 * Telegram's tags, escaped by construction, links only http(s) and tg) and the button under it.
 */
export function TelegramPreview({ preview }: { preview: BroadcastPreviewResponse }) {
  return (
    <div className="broadcast-preview" aria-label="Предпросмотр сообщения">
      <div className="broadcast-preview-bubble">
        {preview.photo_url && <img className="broadcast-preview-photo" src={preview.photo_url} alt="Фото рассылки" />}
        <div className="broadcast-preview-text" dangerouslySetInnerHTML={{ __html: preview.html }} />
      </div>
      {preview.button && (
        <div className="broadcast-preview-button">
          {preview.button.text}
          {preview.button.url && <span className="visually-hidden"> (ссылка {preview.button.url})</span>}
        </div>
      )}
    </div>
  );
}
