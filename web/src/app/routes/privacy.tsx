import { PageHeader } from '@/components/ui/page-header';
import { site } from '@/config/site';
import { LegalDocument } from '@/features/legal/components/legal-document';
import { privacySections } from '@/features/legal/privacy-text';

import { PageContainer } from '../layouts/page-container';

export function PrivacyPage() {
  return (
    <PageContainer narrow>
      <PageHeader title={site.privacyTitle} />
      <LegalDocument sections={privacySections} />
    </PageContainer>
  );
}
