import type { ReactNode } from 'react';
import Card from 'react-bootstrap/Card';

import { usePageTitle } from '@/lib/use-page-title';

/** The centred card the login and registration forms sit in. */
export function AuthCard({
  title,
  subtitle,
  children,
  footer,
}: {
  title: string;
  subtitle?: string;
  children: ReactNode;
  footer?: ReactNode;
}) {
  usePageTitle(title);
  return (
    <div className="auth-wrapper mx-auto">
      <Card className="auth-card">
        <Card.Body className="p-4 p-sm-5">
          <h1 className="h3 mb-1 text-center">{title}</h1>
          {subtitle && <p className="text-body-secondary text-center mb-4">{subtitle}</p>}
          {children}
        </Card.Body>
      </Card>
      {footer && <div className="text-center mt-3 text-body-secondary">{footer}</div>}
    </div>
  );
}
