import type { ReactNode } from 'react';
import Card from 'react-bootstrap/Card';

import { EmptyState } from '@/components/ui/empty-state';
import type { IconName } from '@/components/ui/icons';
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

/** Placeholder body of an admin screen whose table arrives with its feature. */
export function AdminSectionPending({ icon, title, children }: { icon: IconName; title: string; children: ReactNode }) {
  return (
    <Card>
      <Card.Body>
        <EmptyState icon={icon} title={title}>
          {children}
        </EmptyState>
      </Card.Body>
    </Card>
  );
}
