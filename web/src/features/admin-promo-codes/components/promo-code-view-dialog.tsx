import type { PromoCode } from '@gpt/contracts';
import Table from 'react-bootstrap/Table';

import { StatusBadge } from '@/components/ui/status-badge';
import { DetailList, ViewDialog } from '@/components/ui/view-dialog';
import { formatDateTime } from '@/lib/dates';

import { usePromoCodeDetail } from '../api/get-admin-promo-codes';
import { promoGift } from '../format';

/** is_active as a tag. */
export function PromoActiveTag({ active }: { active: boolean }) {
  return (
    <StatusBadge
      value={String(active)}
      variants={{ true: 'success', false: 'secondary' }}
      labels={{ true: 'Активен', false: 'Отключён' }}
    />
  );
}

/** A promo code with every field and who used it, newest first. */
export function PromoCodeViewDialog({ promoCode, onHide }: { promoCode: PromoCode | null; onHide: () => void }) {
  const detail = usePromoCodeDetail(promoCode?.id ?? null);
  const code = detail.data?.promo_code ?? promoCode;
  const redemptions = detail.data?.redemptions ?? [];
  return (
    <ViewDialog show={promoCode !== null} title="Промокод" onHide={onHide} loading={detail.isLoading}>
      {code && (
        <>
          <DetailList
            items={[
              { label: 'Код', value: <span translate="no">{code.code}</span> },
              { label: 'Даёт', value: promoGift(code) },
              { label: 'Использован', value: `${code.used_count} из ${code.max_uses}` },
              { label: 'Действует с', value: code.valid_from ? formatDateTime(code.valid_from) : null },
              { label: 'Действует до', value: code.valid_until ? formatDateTime(code.valid_until) : null },
              { label: 'Статус', value: <PromoActiveTag active={code.is_active} /> },
              { label: 'Создан', value: formatDateTime(code.created_at) },
            ]}
          />
          <h3 className="h6 mt-4">Кто использовал</h3>
          {redemptions.length === 0 ? (
            <p className="text-body-secondary mb-0">Промокод ещё никто не использовал</p>
          ) : (
            <Table size="sm" responsive className="mb-0" data-testid="promo-redemptions">
              <thead>
                <tr>
                  <th>ID</th>
                  <th>Пользователь</th>
                  <th>Когда</th>
                </tr>
              </thead>
              <tbody>
                {redemptions.map((use) => (
                  <tr key={use.user_id}>
                    <td>{use.user_id}</td>
                    <td className="text-break">
                      {use.email ?? (use.username ? `@${use.username}` : `Telegram ${use.telegram_id ?? ''}`)}
                    </td>
                    <td className="text-nowrap">{formatDateTime(use.redeemed_at)}</td>
                  </tr>
                ))}
              </tbody>
            </Table>
          )}
        </>
      )}
    </ViewDialog>
  );
}
