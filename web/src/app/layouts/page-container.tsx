import type { ReactNode } from 'react';
import Container from 'react-bootstrap/Container';

/** Padding and width for a regular (non-landing) page. */
export function PageContainer({ children, narrow = false }: { children: ReactNode; narrow?: boolean }) {
  return (
    <Container className={`page-container py-4 py-lg-5 ${narrow ? 'page-container-narrow' : ''}`}>{children}</Container>
  );
}
