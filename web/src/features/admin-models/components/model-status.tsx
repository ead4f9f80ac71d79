import { StatusBadge } from '@/components/ui/status-badge';

/** docs/product.md, States: a model is active ('Активна') or inactive ('Неактивна'). */
export function ModelStatus({ active }: { active: boolean }) {
  return (
    <StatusBadge
      value={String(active)}
      variants={{ true: 'success', false: 'secondary' }}
      labels={{ true: 'Активна', false: 'Неактивна' }}
    />
  );
}
