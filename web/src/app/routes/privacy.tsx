import { PageHeader } from '@/components/ui/page-header';
import { LegalDocument } from '@/features/legal/components/legal-document';
import { privacySections } from '@/features/legal/privacy-text';

import { PageContainer } from '../layouts/page-container';

export function PrivacyPage() {
  return (
    <PageContainer narrow>
      <PageHeader title="Согласие на обработку персональных данных" documentTitle="Персональные данные" />
      <LegalDocument sections={privacySections} />
    </PageContainer>
  );
}
