import type { ReactNode } from 'react';

import { usePageTitle } from '@/lib/use-page-title';

export interface PageHeaderProps {
  title: string;
  lead?: ReactNode;
  /** Buttons shown at the right of the title. */
  actions?: ReactNode;
  /** Tab title when it differs from the heading. */
  documentTitle?: string;
}

/** The heading block every page starts with; also sets the browser tab title. */
export function PageHeader({ title, lead, actions, documentTitle }: PageHeaderProps) {
  usePageTitle(documentTitle ?? title);
  return (
    <header className="page-header d-flex flex-wrap align-items-end justify-content-between gap-3 mb-4">
      <div>
        <h1 className="page-title mb-1">{title}</h1>
        {lead && <p className="page-lead text-body-secondary mb-0">{lead}</p>}
      </div>
      {actions && <div className="d-flex flex-wrap gap-2">{actions}</div>}
    </header>
  );
}
