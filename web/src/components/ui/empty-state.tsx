import type { ReactNode } from 'react';

import { Icon, type IconName } from './icons';

export interface EmptyStateProps {
  icon?: IconName;
  title: string;
  children?: ReactNode;
  actions?: ReactNode;
  /** h1 when the state is the whole page (result pages), h2 inside a page. */
  titleAs?: 'h1' | 'h2';
}

/** A calm panel for «nothing here (yet)». */
export function EmptyState({ icon = 'alert', title, children, actions, titleAs: Title = 'h2' }: EmptyStateProps) {
  return (
    <div className="empty-state text-center py-5 px-3">
      <div className="empty-state-icon mx-auto mb-3">
        <Icon name={icon} size={28} />
      </div>
      <Title className="h5 mb-2">{title}</Title>
      {children && <div className="text-body-secondary mx-auto empty-state-text">{children}</div>}
      {actions && <div className="d-flex justify-content-center flex-wrap gap-2 mt-3">{actions}</div>}
    </div>
  );
}
