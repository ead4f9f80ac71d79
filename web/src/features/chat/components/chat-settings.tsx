import { CHAT_INSTRUCTIONS_MAX_CHARS } from '@gpt/contracts';
import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';

import { BusyButton } from '@/components/ui/busy-button';
import { DialogFrame } from '@/components/ui/dialog-frame';
import { Icon } from '@/components/ui/icons';
import { errorMessage } from '@/lib/api-client';

import { usePreferences, useSavePreferences } from '../api/preferences';

const SAVE_FAILED = 'Не удалось сохранить настройки';

/** The model and mode pickers and the personal instructions: the same settings as the bot's /model, /mode, /instructions. */
export function ChatSettings() {
  const preferences = usePreferences();
  const save = useSavePreferences();
  const [editing, setEditing] = useState<string | null>(null);
  const data = preferences.data;
  if (!data) return null;

  const saveInstructions = () => save.mutate({ instructions: editing ?? '' }, { onSuccess: () => setEditing(null) });

  return (
    <div className="chat-settings">
      <Form.Select
        size="sm"
        aria-label="Модель"
        title="Модель"
        value={data.model}
        disabled={save.isPending}
        onChange={(event) => save.mutate({ model: event.target.value })}
      >
        {data.models.map((model) => (
          <option key={model.id} value={model.id}>
            {model.name}
          </option>
        ))}
      </Form.Select>
      <Form.Select
        size="sm"
        aria-label="Режим"
        title="Режим"
        value={data.modeId ?? ''}
        disabled={save.isPending}
        onChange={(event) => save.mutate({ modeId: event.target.value || null })}
      >
        <option value="">Без режима</option>
        {data.modes.map((mode) => (
          <option key={mode.id} value={mode.id}>
            {mode.name}
          </option>
        ))}
      </Form.Select>
      <Button
        size="sm"
        variant="outline-secondary"
        aria-label="Инструкции"
        title="Личные инструкции"
        onClick={() => setEditing(data.instructions)}
      >
        <Icon name="settings" size={16} />
        <span className="d-none d-sm-inline ms-1">Инструкции</span>
      </Button>
      {save.isError && editing === null && (
        <span className="small text-danger" role="alert">
          {errorMessage(save.error, SAVE_FAILED)}
        </span>
      )}
      <DialogFrame
        show={editing !== null}
        onHide={() => setEditing(null)}
        title="Личные инструкции"
        dismissLabel="Отмена"
        busy={save.isPending}
        error={save.isError ? errorMessage(save.error, SAVE_FAILED) : null}
        onSubmit={(event) => {
          event.preventDefault();
          saveInstructions();
        }}
        action={
          <BusyButton type="submit" busy={save.isPending}>
            Сохранить
          </BusyButton>
        }
      >
        <Form.Group controlId="chat-instructions">
          <Form.Label>Что модели знать о вас и как отвечать — для каждого ответа, здесь и в боте</Form.Label>
          <Form.Control
            as="textarea"
            rows={6}
            maxLength={CHAT_INSTRUCTIONS_MAX_CHARS}
            value={editing ?? ''}
            onChange={(event) => setEditing(event.target.value)}
          />
          <Form.Text>
            Не больше {CHAT_INSTRUCTIONS_MAX_CHARS.toLocaleString('ru-RU')} символов. Пусто — без инструкций.
          </Form.Text>
        </Form.Group>
      </DialogFrame>
    </div>
  );
}
