import type { ReactNode } from 'react';

import { PageHeader } from '@/components/ui/page-header';

/** The frame of one admin screen: heading, toolbar, content. */
export function AdminPage({
  title,
  lead,
  actions,
  children,
}: {
  title: string;
  lead?: ReactNode;
  actions?: ReactNode;
  children: ReactNode;
}) {
  return (
    <>
      <PageHeader title={title} lead={lead} actions={actions} documentTitle={`${title} · админка`} />
      {children}
    </>
  );
}
