import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import InputGroup from 'react-bootstrap/InputGroup';

import { Icon } from './icons';
import { useToast } from './toasts';

/** A read-only value with a «Копировать» button (a failed copy is only logged; the text can still be selected). */
export function CopyField({ label, value, id }: { label: string; value: string; id: string }) {
  const toast = useToast();
  async function copy() {
    try {
      await navigator.clipboard.writeText(value);
      toast.success('Ссылка скопирована');
    } catch (err) {
      console.error('Copy failed', err);
    }
  }
  return (
    <Form.Group controlId={id} className="mb-2">
      <Form.Label className="small text-body-secondary mb-1">{label}</Form.Label>
      <InputGroup>
        <Form.Control readOnly value={value} onFocus={(event) => event.currentTarget.select()} translate="no" />
        <Button variant="outline-secondary" onClick={copy} aria-label={`Копировать: ${label}`}>
          <Icon name="copy" size={16} className="me-1" />
          Копировать
        </Button>
      </InputGroup>
    </Form.Group>
  );
}
