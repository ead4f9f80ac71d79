import { useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';

import { Icon } from '@/components/ui/icons';

/** A request body stays under the service's 1 MB JSON limit with the file in base64. */
const MAX_FILE_BYTES = 700 * 1024;
const PHOTO_TYPES = 'image/jpeg,image/png,image/gif,image/webp';

export interface Attachment {
  kind: 'photo' | 'document' | 'voice';
  file_name: string;
  mime_type: string;
  data: string;
  /** Seconds of a voice message. */
  duration?: number;
}

export interface ComposerProps {
  onSend(text: string): void;
  /** The text typed so far goes with the file as its caption. */
  onAttach(attachment: Attachment, caption: string): void;
  onError(message: string): void;
}

function readBase64(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result).replace(/^data:[^,]*,/, ''));
    reader.onerror = () => reject(reader.error ?? new Error('read failed'));
    reader.readAsDataURL(file);
  });
}

/** Seconds of an audio file, as the browser decodes it (1 when it cannot). */
async function audioSeconds(file: File): Promise<number> {
  try {
    const decoded = await new OfflineAudioContext(1, 1, 48_000).decodeAudioData(await file.arrayBuffer());
    return Math.max(1, Math.ceil(decoded.duration));
  } catch {
    return 1;
  }
}

/**
 * The text box (Enter sends, Shift+Enter breaks the line) with buttons to attach a photo, a
 * document or an audio file sent as a voice message. As in Telegram, a message can be sent while
 * the one before is still on its way: the page sends them in order.
 */
export function Composer({ onSend, onAttach, onError }: ComposerProps) {
  const [text, setText] = useState('');
  const photoInput = useRef<HTMLInputElement>(null);
  const documentInput = useRef<HTMLInputElement>(null);
  const voiceInput = useRef<HTMLInputElement>(null);

  const send = (event?: FormEvent) => {
    event?.preventDefault();
    if (text.trim() === '') return;
    onSend(text.trim());
    setText('');
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) send(event);
  };

  const attach = async (kind: Attachment['kind'], input: HTMLInputElement | null) => {
    const file = input?.files?.[0];
    if (input) input.value = '';
    if (!file) return;
    if (file.size > MAX_FILE_BYTES) {
      onError(`Файл больше 700 КБ: в песочнице можно отправить файл поменьше`);
      return;
    }
    const data = await readBase64(file).catch(() => null);
    if (!data) {
      onError('Не удалось прочитать файл');
      return;
    }
    const duration = kind === 'voice' ? await audioSeconds(file) : undefined;
    onAttach(
      { kind, file_name: file.name, mime_type: file.type || 'application/octet-stream', data, duration },
      text.trim(),
    );
    setText('');
  };

  return (
    <Form className="tg-composer" onSubmit={send}>
      <input
        ref={photoInput}
        type="file"
        accept={PHOTO_TYPES}
        hidden
        data-testid="attach-photo"
        onChange={() => void attach('photo', photoInput.current)}
      />
      <input
        ref={documentInput}
        type="file"
        hidden
        data-testid="attach-document"
        onChange={() => void attach('document', documentInput.current)}
      />
      <input
        ref={voiceInput}
        type="file"
        accept="audio/*"
        hidden
        data-testid="attach-voice"
        onChange={() => void attach('voice', voiceInput.current)}
      />
      <Button
        variant="link"
        className="tg-icon-button"
        title="Отправить фото"
        aria-label="Отправить фото"
        onClick={() => photoInput.current?.click()}
      >
        <Icon name="image" />
      </Button>
      <Button
        variant="link"
        className="tg-icon-button"
        title="Отправить документ"
        aria-label="Отправить документ"
        onClick={() => documentInput.current?.click()}
      >
        <Icon name="file" />
      </Button>
      <Button
        variant="link"
        className="tg-icon-button"
        title="Отправить голосовое (аудиофайл)"
        aria-label="Отправить голосовое"
        onClick={() => voiceInput.current?.click()}
      >
        <Icon name="mic" />
      </Button>
      <Form.Control
        as="textarea"
        rows={1}
        className="tg-input"
        placeholder="Сообщение"
        aria-label="Сообщение боту"
        maxLength={4096}
        value={text}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={onKeyDown}
      />
      <Button type="submit" className="tg-icon-button" aria-label="Отправить" disabled={text.trim() === ''}>
        <Icon name="send" />
      </Button>
    </Form>
  );
}
