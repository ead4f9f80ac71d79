import type { Tariff } from '@gpt/contracts';

import { ActiveTag } from '@/components/ui/active-tag';
import { DetailList, ViewDialog } from '@/components/ui/view-dialog';
import { formatDateTime } from '@/lib/dates';
import { formatCredits, formatRoubles } from '@/lib/money';

import { ImagesIcon } from './tariff-flags';

/** The view dialog of a tariff: every field plus created and updated times (docs/product.md, Screens). */
export function TariffViewDialog({ tariff, onHide }: { tariff: Tariff | null; onHide: () => void }) {
  return (
    <ViewDialog show={tariff !== null} title="Информация о тарифе" onHide={onHide}>
      {tariff && (
        <DetailList
          items={[
            { label: 'ID', value: tariff.id },
            { label: 'Название', value: tariff.name },
            { label: 'Описание', value: tariff.description },
            { label: 'Цена в месяц', value: formatRoubles(tariff.monthly_price) },
            { label: 'Кредитов за 1 ₽', value: formatCredits(tariff.credits_per_ruble) },
            { label: 'Включённые кредиты', value: formatCredits(tariff.included_credits) },
            { label: 'Генерация изображений', value: <ImagesIcon allowed={tariff.can_generate_images} /> },
            { label: 'Статус', value: <ActiveTag active={tariff.is_active} /> },
            { label: 'Создан', value: formatDateTime(tariff.created_at) },
            { label: 'Обновлён', value: formatDateTime(tariff.updated_at) },
          ]}
        />
      )}
    </ViewDialog>
  );
}
