import { Icon } from '@/components/ui/icons';
import { StatusBadge } from '@/components/ui/status-badge';

/** can_generate_images as a check or a cross (docs/product.md, Screens). */
export function ImagesIcon({ allowed }: { allowed: boolean }) {
  return (
    <Icon
      name={allowed ? 'check' : 'cross'}
      size={18}
      className={allowed ? 'text-success' : 'text-danger'}
      title={allowed ? 'Да' : 'Нет'}
    />
  );
}

/** is_active as a tag: Active or Inactive (docs/product.md, Screens and States). */
export function ActiveTag({ active }: { active: boolean }) {
  return (
    <StatusBadge
      value={String(active)}
      variants={{ true: 'success', false: 'secondary' }}
      labels={{ true: 'Активен', false: 'Неактивен' }}
    />
  );
}
