import Card from 'react-bootstrap/Card';

import { PageHeader } from '@/components/ui/page-header';
import { ContactForm } from '@/features/feedback/components/contact-form';

import { PageContainer } from '../layouts/page-container';

export function ContactPage() {
  return (
    <PageContainer narrow>
      <PageHeader
        title="Обратная связь"
        lead="Вопрос, идея или проблема с оплатой — напишите нам. Ответим в Telegram, если он связан с вашим аккаунтом, иначе на e-mail."
      />
      <Card>
        <Card.Body className="p-4">
          <ContactForm />
        </Card.Body>
      </Card>
    </PageContainer>
  );
}
