import type { TariffOption } from '@gpt/contracts';
import type { ReactNode } from 'react';
import Form from 'react-bootstrap/Form';

/** A select of the tariffs (`GET /api/admin/tariffs/all`), after the options given as children. */
export function TariffSelect({
  value,
  tariffs,
  onChange,
  children,
}: {
  value: string;
  tariffs: TariffOption[];
  onChange: (value: string) => void;
  children: ReactNode;
}) {
  return (
    <Form.Select value={value} onChange={(event) => onChange(event.target.value)}>
      {children}
      {tariffs.map((tariff) => (
        <option key={tariff.id} value={String(tariff.id)}>
          {tariff.name}
        </option>
      ))}
    </Form.Select>
  );
}
