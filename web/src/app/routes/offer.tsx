import { PageHeader } from '@/components/ui/page-header';
import { site } from '@/config/site';
import { LegalDocument } from '@/features/legal/components/legal-document';
import { OFFER_UPDATED_AT, offerSections } from '@/features/legal/offer-text';
import { usePublicTariffPlans } from '@/features/tariffs/api/get-public-tariffs';
import { planTerms } from '@/features/tariffs/tariff-facts';

import { PageContainer } from '../layouts/page-container';

export function OfferPage() {
  const plans = usePublicTariffPlans();
  return (
    <PageContainer narrow>
      <PageHeader title={site.offerTitle} lead={`Последнее обновление: ${OFFER_UPDATED_AT}`} />
      <LegalDocument sections={offerSections(plans.map(planTerms))} />
    </PageContainer>
  );
}
