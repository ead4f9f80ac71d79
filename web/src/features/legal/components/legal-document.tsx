import type { ReactNode } from 'react';
import Card from 'react-bootstrap/Card';

export interface LegalSection {
  title: string;
  paragraphs: ReactNode[];
}

/** A numbered legal text: sections with numbered paragraphs. */
export function LegalDocument({ sections }: { sections: readonly LegalSection[] }) {
  return (
    <Card className="legal-document">
      <Card.Body className="p-4 p-lg-5">
        {sections.map((section, sectionIndex) => (
          <section key={section.title} className="mb-4">
            <h2 className="h5 mb-3">
              {sectionIndex + 1}. {section.title}
            </h2>
            {section.paragraphs.map((paragraph, index) => (
              <p key={index} className="mb-2">
                <span className="text-body-secondary me-1">
                  {sectionIndex + 1}.{index + 1}.
                </span>
                {paragraph}
              </p>
            ))}
          </section>
        ))}
      </Card.Body>
    </Card>
  );
}
