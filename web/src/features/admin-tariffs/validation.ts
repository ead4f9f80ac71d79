/** The tariff form (docs/product.md, Validation): what the admin types, and its two rules with their exact texts. */
export interface TariffFormValues {
  name: string;
  description: string;
  monthly_price: string;
  credits_per_ruble: string;
  included_credits: string;
  can_generate_images: boolean;
  is_active: boolean;
}

/** Only `name` and `credits_per_ruble` have rules. */
export type TariffFormErrors = Partial<Record<keyof TariffFormValues, string>>;

/** A new tariff's form (docs/product.md, Data defaults: price 0, 100 credits per rouble, 0 included, active). */
export const emptyTariffForm: TariffFormValues = {
  name: '',
  description: '',
  monthly_price: '0',
  credits_per_ruble: '100',
  included_credits: '0',
  can_generate_images: false,
  is_active: true,
};

/** Name required after trimming; credits per rouble above 0. Saving is blocked while either fails. */
export function validateTariff(values: TariffFormValues): TariffFormErrors {
  const errors: TariffFormErrors = {};
  if (values.name.trim() === '') errors.name = 'Название обязательно';
  const credits = Number(values.credits_per_ruble);
  if (values.credits_per_ruble.trim() === '' || !Number.isFinite(credits) || credits <= 0) {
    errors.credits_per_ruble = 'Количество кредитов должно быть больше 0';
  }
  return errors;
}
