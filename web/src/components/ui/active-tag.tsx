import { StatusBadge } from './status-badge';

/** is_active as a tag: «Активен» or «Неактивен» (tariffs, chat modes). */
export function ActiveTag({ active }: { active: boolean }) {
  return (
    <StatusBadge
      value={String(active)}
      variants={{ true: 'success', false: 'secondary' }}
      labels={{ true: 'Активен', false: 'Неактивен' }}
    />
  );
}
