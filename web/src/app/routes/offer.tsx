import { PageHeader } from '@/components/ui/page-header';
import { site } from '@/config/site';
import { LegalDocument } from '@/features/legal/components/legal-document';
import { OFFER_UPDATED_AT, offerSections } from '@/features/legal/offer-text';

import { PageContainer } from '../layouts/page-container';

export function OfferPage() {
  return (
    <PageContainer narrow>
      <PageHeader title={site.offerTitle} lead={`Последнее обновление: ${OFFER_UPDATED_AT}`} />
      <LegalDocument sections={offerSections} />
    </PageContainer>
  );
}
