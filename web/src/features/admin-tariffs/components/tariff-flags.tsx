import { Icon } from '@/components/ui/icons';

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
