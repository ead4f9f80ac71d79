import { PromoCodeInput, type PromoCode } from '@gpt/contracts';
import { Controller } from 'react-hook-form';
import Form from 'react-bootstrap/Form';

import { FormDialog } from '@/components/ui/form-dialog';
import { DateTimeField, Field, TextField } from '@/components/ui/form-field';
import { TariffSelect } from '@/components/ui/tariff-select';
import { useTariffOptions } from '@/lib/admin-tariff-options';
import { numberInput, useContractForm } from '@/lib/contract-form';

import type { PromoCodeBody } from '../api/save-promo-code';

function formOf(code: PromoCode | null): PromoCodeBody {
  return {
    code: code?.code ?? '',
    kind: code?.kind ?? 'credits',
    credits: code?.credits ?? null,
    tariff_id: code?.tariff_id ?? null,
    tariff_days: code?.tariff_days ?? null,
    max_uses: code?.max_uses ?? 100,
    valid_from: code?.valid_from ?? null,
    valid_until: code?.valid_until ?? null,
    is_active: code?.is_active ?? true,
  };
}

/**
 * A count left empty is null. The fields of the other kind leave the form with their inputs: a code sends only what
 * its kind gives.
 */
const count = numberInput(null);
const countOfKind = { ...count, shouldUnregister: true };

/**
 * Create / edit dialog of a promo code; mount it with a key of the edited code. The contract's PromoCodeInput checks
 * the fields: a rule's text shows under its field once the field was changed or left; saving is blocked while a rule
 * fails.
 */
export function PromoCodeFormDialog({
  show,
  promoCode,
  saving,
  error,
  onHide,
  onSave,
}: {
  show: boolean;
  promoCode: PromoCode | null;
  saving: boolean;
  error: string | null;
  onHide: () => void;
  onSave: (body: PromoCodeBody) => void;
}) {
  const tariffs = useTariffOptions().data ?? [];
  const form = useContractForm(PromoCodeInput, formOf(promoCode), 'all');
  const kind = form.watch('kind');

  return (
    <FormDialog
      show={show}
      title={promoCode ? 'Редактировать промокод' : 'Новый промокод'}
      onHide={onHide}
      onSubmit={() => void form.handleSubmit(onSave)()}
      onEntered={() => form.setFocus('code')}
      saving={saving}
      error={error}
      submitDisabled={!form.formState.isValid}
      width="model"
    >
      <div className="row g-3 mb-3">
        <TextField
          controlId="promo-code"
          label="Код"
          className="col-12 col-md-6"
          maxLength={32}
          {...form.field('code')}
        />
        <Field controlId="promo-kind" label="Что даёт" className="col-12 col-md-6">
          <Form.Select {...form.register('kind')}>
            <option value="credits">Кредиты</option>
            <option value="tariff">Тариф на N дней</option>
          </Form.Select>
        </Field>
        {kind === 'credits' ? (
          <TextField
            controlId="promo-credits"
            label="Кредитов"
            className="col-12 col-md-6"
            type="number"
            min={1}
            step="1"
            {...form.field('credits', countOfKind)}
          />
        ) : (
          <>
            <Controller
              control={form.control}
              name="tariff_id"
              shouldUnregister
              render={({ field }) => (
                <Field
                  controlId="promo-tariff-id"
                  label="Тариф"
                  className="col-12 col-md-6"
                  error={form.message('tariff_id')}
                >
                  <TariffSelect
                    value={field.value ? String(field.value) : ''}
                    tariffs={tariffs}
                    onChange={(value) => field.onChange(value === '' ? null : Number(value))}
                  >
                    <option value="">Выберите тариф</option>
                  </TariffSelect>
                </Field>
              )}
            />
            <TextField
              controlId="promo-tariff-days"
              label="Дней"
              className="col-12 col-md-6"
              type="number"
              min={1}
              step="1"
              {...form.field('tariff_days', countOfKind)}
            />
          </>
        )}
        <TextField
          controlId="promo-max-uses"
          label="Всего использований"
          className="col-12 col-md-6"
          type="number"
          min={1}
          step="1"
          {...form.field('max_uses', count)}
        />
        {(['valid_from', 'valid_until'] as const).map((name) => (
          <Controller
            key={name}
            control={form.control}
            name={name}
            // «Конец действия должен быть позже начала» compares both moments, so a new start checks the end again.
            rules={name === 'valid_from' ? { deps: 'valid_until' } : undefined}
            render={({ field }) => (
              <DateTimeField
                controlId={`promo-${name.replaceAll('_', '-')}`}
                label={name === 'valid_from' ? 'Действует с' : 'Действует до'}
                className="col-12 col-md-6"
                {...field}
                error={form.message(name)}
              />
            )}
          />
        ))}
      </div>
      <Form.Check id="promo-is-active" label="Активен" {...form.register('is_active')} />
    </FormDialog>
  );
}
