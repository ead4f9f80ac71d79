import type {
  AdminPromoCodesQuery,
  AdminPromoCodesResponse,
  PromoCode,
  PromoCodeDetailResponse,
  PromoCodeInput,
  PromoCodeResponse,
  RedeemPromoResponse,
  SuccessResponse,
} from '@gpt/contracts';
import { toMinorUnits } from '@gpt/contracts';
import { type AdminAction, isUniqueViolation } from '@gpt/kit';
import type { BillingDeps } from '../deps';
import type { Balance, ResumedTariff } from '../data/balances.repository';
import { promoCodesRepository, type PromoCodeFields, type PromoCodeRecord } from '../data/promo-codes.repository';
import { tariffsRepository, type Tariff } from '../data/tariffs.repository';
import { usersRepository } from '../data/users.repository';
import { billingErrors } from './errors';
import { changeBalance } from './ledger';
import { addDays, promotedPeriod, purchasedPeriod } from './tariff-period';

const fieldsOf = (input: PromoCodeInput): PromoCodeFields => ({
  code: input.code,
  kind: input.kind,
  credits: input.credits,
  tariffId: input.tariff_id,
  tariffDays: input.tariff_days,
  maxUses: input.max_uses,
  validFrom: input.valid_from ? new Date(input.valid_from) : null,
  validUntil: input.valid_until ? new Date(input.valid_until) : null,
  isActive: input.is_active,
});

async function assertTariffExists(deps: BillingDeps, input: PromoCodeInput): Promise<void> {
  if (input.kind === 'tariff' && !(await tariffsRepository(deps.db).findById(input.tariff_id as number))) {
    throw billingErrors.tariffNotFound();
  }
}

const rethrowTaken = (err: unknown): never => {
  throw isUniqueViolation(err) ? billingErrors.promoCodeTaken() : err;
};

/** The admin's promo codes screen: list, view with who used it, create, edit, delete while unused. */
export function managePromoCodes(deps: BillingDeps) {
  const codes = promoCodesRepository(deps.db);
  const foundIn = async (db: Parameters<typeof promoCodesRepository>[0], id: number): Promise<PromoCode> => {
    const code = await promoCodesRepository(db).findById(id);
    if (!code) throw billingErrors.promoNotFound();
    return code;
  };
  const found = (id: number) => foundIn(deps.db, id);
  return {
    list: (query: AdminPromoCodesQuery): Promise<AdminPromoCodesResponse> => codes.page(query),

    async view(id: number): Promise<PromoCodeDetailResponse> {
      return { promo_code: await found(id), redemptions: await codes.redemptions(id) };
    },

    async create(input: PromoCodeInput, action: AdminAction): Promise<PromoCodeResponse> {
      await assertTariffExists(deps, input);
      return deps.db
        .transaction()
        .execute(async (trx) => {
          const created = await foundIn(trx, await promoCodesRepository(trx).create(fieldsOf(input)));
          const record = {
            action: 'promo_code.create',
            target: { type: 'promo_code', id: created.id },
            after: created,
          };
          return action.finish(trx, record, { success: true, promo_code: created });
        })
        .catch(rethrowTaken);
    },

    /** Any field may change (deactivating is `is_active: false`), but never to fewer uses than were made. */
    async update(id: number, input: PromoCodeInput, action: AdminAction): Promise<PromoCodeResponse> {
      await assertTariffExists(deps, input);
      return deps.bus
        .transaction(async (trx) => {
          const before = await foundIn(trx, id);
          const current = await promoCodesRepository(trx).lockByCode(before.code);
          if (!current) throw billingErrors.promoNotFound();
          if (input.max_uses < current.usedCount) throw billingErrors.promoMaxBelowUsed(current.usedCount);
          await promoCodesRepository(trx).update(id, fieldsOf(input));
          const after = await foundIn(trx, id);
          const record = { action: 'promo_code.update', target: { type: 'promo_code', id }, before, after };
          return action.finish(trx, record, { success: true, promo_code: after });
        })
        .catch(rethrowTaken);
    },

    async remove(id: number, action: AdminAction): Promise<SuccessResponse> {
      const before = await found(id);
      return deps.db.transaction().execute(async (trx) => {
        if (!(await promoCodesRepository(trx).deleteUnused(id))) throw billingErrors.promoUsed();
        const record = { action: 'promo_code.delete', target: { type: 'promo_code', id }, before };
        return action.finish(trx, record, { success: true, message: 'Промокод удалён' });
      });
    },
  };
}

/** Why a code cannot be redeemed by this person now, as the refusal they read; null when it can. */
function refusal(promo: PromoCodeRecord, redeemedBefore: boolean, now: Date) {
  if (!promo.isActive) return billingErrors.promoNotFound();
  if (promo.validFrom && now < promo.validFrom) return billingErrors.promoNotStarted(promo.validFrom);
  if (promo.validUntil && now >= promo.validUntil) return billingErrors.promoExpired();
  if (redeemedBefore) return billingErrors.promoAlreadyUsed();
  if (promo.usedCount >= promo.maxUses) return billingErrors.promoUsedUp();
  return null;
}

/**
 * A tariff code's days over what the person has: the same tariff is extended; another paid tariff
 * running now is never taken away — a pricier code's tariff starts now and sets it aside to come
 * back after, a cheaper (or as pricey) one is refused until it ends.
 */
function promoPeriod(balance: Balance, tariff: Tariff, now: Date, days: number) {
  const end = balance.tariffEndDate;
  if (balance.tariff.id === tariff.id || end === null || end <= now) {
    return purchasedPeriod(balance, tariff, tariff.included_credits, now, addDays(days));
  }
  if (toMinorUnits(tariff.monthly_price, 2) <= toMinorUnits(balance.tariff.monthlyPrice, 2)) {
    throw billingErrors.promoTariffBelow(balance.tariff.name, end, tariff.name);
  }
  return promotedPeriod(balance, tariff, now, days);
}

/** «…; затем продолжится тариф «Premium» (ещё 27 дн.)» when the code set a paid tariff aside. */
async function setAsideNote(deps: BillingDeps, resume: ResumedTariff | null | undefined): Promise<string> {
  if (!resume) return '';
  const resumed = await tariffsRepository(deps.db).findById(resume.tariffId);
  return `; затем продолжится тариф «${resumed?.name ?? ''}» (ещё ${Math.ceil(resume.seconds / 86_400)} дн.)`;
}

/**
 * Redeems a code for the person holding `userId`'s balance (a linked site and Telegram account
 * are one person, so one use between them). The code row is locked for the whole redemption, so
 * concurrent redemptions of one code queue and its uses never exceed the limit. Credits or the
 * tariff for its days go into the ledger as «Промокод КОД» under `promo:<code id>:<person>`; a
 * refused tariff code is not used up (the transaction rolls back).
 */
export async function redeemPromoCode(deps: BillingDeps, userId: number, code: string): Promise<RedeemPromoResponse> {
  const holder = await usersRepository(deps.db).resolve(userId);
  return deps.bus.transaction(async (trx) => {
    const codes = promoCodesRepository(trx);
    const promo = await codes.lockByCode(code);
    if (!promo) throw billingErrors.promoNotFound();
    const now = new Date();
    const refused = refusal(promo, await codes.redeemedBy(promo.id, holder), now);
    if (refused) throw refused;
    await codes.redeem(promo.id, holder);

    const common = { reason: 'promo_code' as const, description: `Промокод ${promo.code}` };
    const reference = `promo:${promo.id}:${holder}`;
    if (promo.kind === 'credits') {
      const credits = promo.credits ?? 0;
      await changeBalance(trx, deps.bus, holder, reference, () => ({
        ...common,
        postings: [{ bucket: 'credits', amount: credits }],
      }));
      return {
        success: true,
        code: promo.code,
        kind: promo.kind,
        credits,
        tariff_name: null,
        tariff_end_date: null,
        message: `Промокод ${promo.code} активирован: +${credits.toLocaleString('ru-RU')} кредитов`,
      };
    }
    const tariff = await tariffsRepository(trx).findById(promo.tariffId as number);
    // Deleting a tariff that a promo code gives is refused, so it is there.
    if (!tariff) throw new Error(`tariff ${promo.tariffId} of promo code ${promo.id} is gone`);
    const days = promo.tariffDays ?? 1;
    const decided: { resume?: ResumedTariff | null } = {};
    const snapshot = await changeBalance(trx, deps.bus, holder, reference, (balance) => {
      const period = promoPeriod(balance, tariff, now, days);
      decided.resume = period.resume;
      return { ...common, ...period };
    });
    return {
      success: true,
      code: promo.code,
      kind: promo.kind,
      credits: null,
      tariff_name: tariff.name,
      tariff_end_date: snapshot?.tariff.end_date ?? null,
      message: `Промокод ${promo.code} активирован: тариф «${tariff.name}» на ${days} дн.${await setAsideNote(deps, decided.resume)}`,
    };
  });
}

/** The bot's `/promo КОД` for a Telegram user. */
export async function botRedeemPromoCode(
  deps: BillingDeps,
  telegramId: number,
  code: string,
): Promise<RedeemPromoResponse> {
  const user = await usersRepository(deps.db).findByTelegramId(telegramId);
  if (!user) throw billingErrors.userNotFound();
  return redeemPromoCode(deps, user.id, code);
}
