import type { ChatMode } from '@gpt/contracts';

import { ActiveTag } from '@/components/ui/active-tag';
import { DetailList, ViewDialog } from '@/components/ui/view-dialog';
import { formatDateTime } from '@/lib/dates';

import { DefaultMark } from './default-mark';

/** The view dialog of a chat mode: every field, the prompt as written. */
export function ModeViewDialog({ mode, onHide }: { mode: ChatMode | null; onHide: () => void }) {
  return (
    <ViewDialog show={mode !== null} title="Информация о режиме" onHide={onHide} width="model">
      {mode && (
        <DetailList
          items={[
            { label: 'ID', value: mode.id },
            { label: 'Название', value: `${mode.emoji} ${mode.name}` },
            { label: 'Описание', value: mode.description },
            {
              label: 'Системный промпт',
              value: <div className="mode-prompt-text small">{mode.system_prompt}</div>,
            },
            { label: 'Порядок', value: mode.sort_order },
            { label: 'Статус', value: <ActiveTag active={mode.is_active} /> },
            { label: 'По умолчанию', value: mode.is_default ? <DefaultMark isDefault /> : 'Нет' },
            { label: 'Создан', value: formatDateTime(mode.created_at) },
            { label: 'Обновлён', value: formatDateTime(mode.updated_at) },
          ]}
        />
      )}
    </ViewDialog>
  );
}
