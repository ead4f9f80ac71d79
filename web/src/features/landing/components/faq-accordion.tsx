import Accordion from 'react-bootstrap/Accordion';

import { faqItems } from '../faq';

/** The questions as an accordion; `count` limits it to the first ones. */
export function FaqAccordion({ count, tariffsAnswer }: { count?: number; tariffsAnswer: string }) {
  return (
    <Accordion>
      {faqItems(tariffsAnswer)
        .slice(0, count)
        .map((item, index) => (
          <Accordion.Item eventKey={String(index)} key={item.q}>
            <Accordion.Header>{item.q}</Accordion.Header>
            <Accordion.Body className="text-body-secondary">{item.a}</Accordion.Body>
          </Accordion.Item>
        ))}
    </Accordion>
  );
}
