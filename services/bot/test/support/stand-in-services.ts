import { randomUUID } from 'node:crypto';
import {
  RENEWAL_CONSENT_VERSION,
  type BotCreatePaymentRequest,
  DEFAULT_BOT_SETTINGS,
  DEFAULT_COST_SETTINGS,
  messageCost,
  type AiModel,
  type BotBalanceResponse,
  type BotUser,
  type ChatMode,
  type CreatePaymentResponse,
  type MessageCost,
  type PaymentCanceledData,
  type PublicTariff,
  type ReferralRewardedData,
  ReferralCodeInput,
  type UserPayment,
} from '@gpt/contracts';
import {
  ServiceCallError,
  type AttachedImage,
  type RecordMessageBody,
  type ServiceClients,
} from '../../src/clients/services';

/**
 * Auth, billing and chat-history as the bot sees them, in memory: the `ServiceClients` the bot is
 * wired with, answering as those services do (their contracts' shapes, their refusals as
 * ServiceCallError), so a test of one bot feature needs neither the other services nor a database of
 * theirs. Charges use the contracts' `messageCost`, as chat-history and billing do. Tests arrange
 * users, balances, models and settings through it and read what the bot recorded.
 */

const at = '2026-01-01T00:00:00.000Z';

function model(id: number, name: string, prices: Partial<AiModel> = {}): AiModel {
  return {
    id,
    model: name,
    description: null,
    input_price_per_1m: '0.150000',
    output_price_per_1m: '0.600000',
    image_price: null,
    transcription_price_per_minute: null,
    speech_price_per_1k_chars: null,
    is_active: true,
    created_at: at,
    updated_at: at,
    ...prices,
  } as AiModel;
}

const TARIFFS: PublicTariff[] = [
  {
    id: 1,
    name: 'Base',
    description: null,
    monthly_price: '0.00',
    credits_per_ruble: 100,
    included_credits: 0,
    can_generate_images: false,
  },
  {
    id: 2,
    name: 'Premium',
    description: null,
    monthly_price: '350.00',
    credits_per_ruble: 200,
    included_credits: 70_000,
    can_generate_images: true,
  },
  {
    id: 3,
    name: 'Elite',
    description: null,
    monthly_price: '1250.00',
    credits_per_ruble: 400,
    included_credits: 500_000,
    can_generate_images: true,
  },
];

export interface StandInAccount {
  user: BotUser;
  credits: number;
  includedCredits: number;
  tariff: PublicTariff;
  /** The welcome grant the user got on their first contact (billing's, after auth's user.registered). */
  welcomeCredits: number;
  blocked: boolean;
  /** Who invited the user: auth keeps the inviter of the referral code their first contact came with. */
  referredBy: number | null;
  /** The user gets broadcasts («Новости и акции»). */
  news: boolean;
  /** The user has paid money at least once (auth's projection of billing's deposits). */
  paid: boolean;
  /** When the paid tariff's period ends; null: no paid tariff. */
  tariffEndsAt: Date | null;
}

interface Hold {
  telegramId: number;
  amount: number;
}

export interface RecordedMessage {
  body: RecordMessageBody;
  image?: AttachedImage;
  /** The credits charged. */
  cost: number;
  /** The cost's parts in dollars, as chat-history stores them with the message. */
  dollars: Omit<MessageCost, 'cost'>;
}

export type StandInServices = ServiceClients & {
  /** Credits each new user gets on their first contact (0 unless a test sets it). */
  welcomeCredits: number;
  /** A Telegram user's account, made as auth would on their first /start. */
  account(telegramId: number): StandInAccount;
  /** Sets a user's bought credits. */
  setCredits(telegramId: number, credits: number): void;
  setTariff(telegramId: number, name: 'Base' | 'Premium' | 'Elite'): void;
  /** The tariffs billing answers (Base, Premium, Elite); a test edits them as the admin does. */
  tariffRows: PublicTariff[];
  /** How long auth's link tokens live, in minutes (its LINK_TOKEN_TTL_MIN: 15 unless a test sets it). */
  linkMinutes: number;
  /** The profile photo the bot sent with each Telegram user's latest link token (null: none). */
  linkPhotos: Map<number, string | null>;
  /** The Telegram id linked to the admin's own account (auth's profile of the admin's token); null: none. */
  adminTelegramId: number | null;
  /** Settings as chat-history answers them (DEFAULT_BOT_SETTINGS and the cost settings, overridden). */
  settingsValues: Record<string, string>;
  modelRows: AiModel[];
  modeRows: ChatMode[];
  /** Adds an active model, as an admin does on /admin/models. */
  addModel(name: string, prices: Partial<AiModel>): AiModel;
  /** Adds an active mode, as an admin does on /admin/modes. */
  addMode(fields: Pick<ChatMode, 'name' | 'emoji' | 'description' | 'system_prompt'> & Partial<ChatMode>): ChatMode;
  /** What the bot recorded, in order. */
  recorded: RecordedMessage[];
  /** Waits until the bot has recorded `count` messages of this user; answers them, oldest first. */
  recordedOf(telegramId: number, count?: number, timeoutMs?: number): Promise<RecordedMessage[]>;
  /** Holds not yet settled or released. */
  openHolds(): number;
  /**
   * Billing's side of a friend's payment that earned their inviter a bonus of `credits`: the inviter
   * has them and /ref counts them; answers the `referral.rewarded` billing publishes.
   */
  referralRewarded(friendTelegramId: number, credits: number): ReferralRewardedData;
  /**
   * Billing's side of a payment that ended without money: canceled for `reason` (the provider's, or
   * email_not_given when its receipt e-mail never came) in the payer's list; answers the
   * `payment.canceled` billing publishes.
   */
  cancelPayment(paymentId: string, reason: string): PaymentCanceledData;
  /** Adds a promo code of `credits`, as an admin does on /admin/promo-codes. */
  addPromoCode(code: string, credits: number): void;
  /** Every payment the bot asked billing to create, in order. */
  paymentRequests: BotCreatePaymentRequest[];
  /** Makes the next call of a method fail as an unreachable service would (503). */
  failNext(method: keyof ServiceClients): void;
  /** Makes every call of a method fail so (503) until `reachable(method)`. */
  unreachable(method: keyof ServiceClients): void;
  reachable(method: keyof ServiceClients): void;
};

export function standInServices(): StandInServices {
  const accounts = new Map<number, StandInAccount>();
  const holds = new Map<string, Hold>();
  const payments = new Map<number, UserPayment[]>();
  const paymentRequests: BotCreatePaymentRequest[] = [];
  const failing = new Set<string>();
  const down = new Set<string>();
  const rewards: ReferralRewardedData[] = [];
  /** Credits of each promo code (kept upper case, as billing keeps them) and who redeemed it. */
  const promoCodes = new Map<string, { credits: number; redeemedBy: Set<number> }>();
  let nextUserId = 1;
  const tariffRows = TARIFFS.map((tariff) => ({ ...tariff }));

  const modelRows: AiModel[] = [
    model(1, 'gpt-4o-mini'),
    model(2, 'gpt-4o', { input_price_per_1m: '2.500000', output_price_per_1m: '10.000000' }),
    model(3, 'gpt-image-1', {
      input_price_per_1m: '0.000000',
      output_price_per_1m: '0.000000',
      image_price: '0.040000',
    }),
    model(4, 'whisper-1', {
      input_price_per_1m: '0.000000',
      output_price_per_1m: '0.000000',
      transcription_price_per_minute: '0.006000',
    }),
    model(5, 'tts-1', {
      input_price_per_1m: '0.000000',
      output_price_per_1m: '0.000000',
      speech_price_per_1k_chars: '0.015000',
    }),
  ];
  const settingsValues: Record<string, string> = { ...DEFAULT_BOT_SETTINGS, ...DEFAULT_COST_SETTINGS };
  const modeRows: ChatMode[] = [];
  const recorded: RecordedMessage[] = [];
  const recordWaiters = new Set<() => void>();

  function account(telegramId: number): StandInAccount {
    let found = accounts.get(telegramId);
    if (!found) {
      found = {
        user: {
          id: nextUserId++,
          telegram_id: telegramId,
          username: null,
          first_name: null,
          last_name: null,
          utm_source: null,
          language_code: null,
          email: null,
          telegram_email: null,
          role: 'user',
          web_linked: false,
          created_at: at,
        },
        credits: 0,
        includedCredits: 0,
        tariff: tariffRows[0]!,
        welcomeCredits: stand.welcomeCredits,
        blocked: false,
        referredBy: null,
        news: true,
        paid: false,
        tariffEndsAt: null,
      };
      found.credits = found.welcomeCredits;
      accounts.set(telegramId, found);
    }
    return found;
  }

  /** The user's own referral code, as auth gives one to every user. */
  const referralCodeOf = (found: StandInAccount) => `FRIEND${found.user.id}`;
  const known = (telegramId: number) => {
    const found = accounts.get(telegramId);
    if (!found) throw new ServiceCallError(404, 'user_not_found', 'Пользователь не найден');
    return found;
  };
  /** A site user holding through the web chat: here every user is a bot user first. */
  const knownUser = (userId: number) => {
    const found = [...accounts.values()].find((candidate) => candidate.user.id === userId);
    if (!found) throw new ServiceCallError(404, 'user_not_found', 'Пользователь не найден');
    return found;
  };
  const held = (telegramId: number) =>
    [...holds.values()].filter((hold) => hold.telegramId === telegramId).reduce((sum, hold) => sum + hold.amount, 0);
  const available = (found: StandInAccount) => found.credits + found.includedCredits - held(found.user.telegram_id);

  /** Fails the call when a test asked for it, as a service that cannot be reached. */
  function reach(method: string) {
    if (down.has(method) || failing.delete(method))
      throw new ServiceCallError(503, 'service_unavailable', 'Сервис временно недоступен');
  }

  /** Charges the included credits first, then the bought ones, as billing does. */
  function charge(found: StandInAccount, cost: number) {
    const fromIncluded = Math.min(found.includedCredits, cost);
    found.includedCredits -= fromIncluded;
    found.credits -= cost - fromIncluded;
  }

  function costOf(body: RecordMessageBody): MessageCost {
    const row = (name: string | null | undefined) => modelRows.find((candidate) => candidate.model === name);
    const chatModel = row(body.model);
    const transcription = row(body.transcription_model);
    const speech = row(body.speech_model);
    return messageCost({
      status: body.status,
      input_tokens: body.input_tokens,
      output_tokens: body.output_tokens,
      input_price_per_1m: chatModel?.input_price_per_1m ?? '0',
      output_price_per_1m: chatModel?.output_price_per_1m ?? '0',
      image_price: chatModel?.image_price ?? null,
      image_count: body.image_count ?? 0,
      audio_seconds: body.audio_seconds ?? 0,
      transcription_price_per_minute: transcription?.transcription_price_per_minute ?? null,
      speech_characters: body.speech_characters ?? 0,
      speech_price_per_1k_chars: speech?.speech_price_per_1k_chars ?? null,
      settings: {
        usd_rub_rate: settingsValues.usd_rub_rate!,
        credit_markup: settingsValues.credit_markup!,
        credits_per_rub: settingsValues.credits_per_rub!,
      },
    });
  }

  function recordedOf(telegramId: number, count = 1, timeoutMs = 20_000): Promise<RecordedMessage[]> {
    const mine = () => recorded.filter((entry) => entry.body.telegram_id === telegramId);
    return new Promise((resolve, reject) => {
      const check = () => {
        if (mine().length < count) return;
        clearTimeout(timer);
        recordWaiters.delete(check);
        resolve(mine());
      };
      const timer = setTimeout(() => {
        recordWaiters.delete(check);
        reject(new Error(`${mine().length} of ${count} messages of ${telegramId} recorded in ${timeoutMs} ms`));
      }, timeoutMs);
      recordWaiters.add(check);
      check();
    });
  }

  /** A payment of the stand-in billing and its payer. */
  function paymentOf(paymentId: string): { payment: UserPayment; telegramId: number } {
    for (const [telegramId, list] of payments) {
      const payment = list.find((candidate) => candidate.payment_id === paymentId);
      if (payment) return { payment, telegramId };
    }
    throw new ServiceCallError(404, 'payment_not_found', 'Платёж не найден');
  }

  /** A payment as billing offers it: with its payment page once it has its receipt e-mail. */
  const offered = (payment: UserPayment): CreatePaymentResponse => ({
    payment_id: payment.payment_id,
    status: payment.status,
    kind: payment.kind,
    amount: payment.amount,
    credits_amount: payment.credits_amount,
    tariff_id: payment.tariff_id,
    description: payment.description!,
    confirmation_url: payment.status === 'pending' ? `http://127.0.0.1/pay/${payment.payment_id}` : null,
  });

  const balance = (found: StandInAccount): BotBalanceResponse => ({
    user_id: found.user.id,
    telegram_id: found.user.telegram_id,
    credits: found.credits,
    included_credits: found.includedCredits,
    held_credits: held(found.user.telegram_id),
    available_credits: available(found),
    can_send: available(found) > 0,
    can_generate_images: found.tariff.can_generate_images,
    tariff: { id: found.tariff.id, name: found.tariff.name, monthly_price: found.tariff.monthly_price, end_date: null },
    welcome_credits: found.welcomeCredits,
  });

  const clients: ServiceClients = {
    async upsertUser(body) {
      reach('upsertUser');
      const isNew = !accounts.has(body.telegram_id);
      const found = account(body.telegram_id);
      const code = ReferralCodeInput.parse(body.referral_code);
      if (isNew && code) {
        found.referredBy = [...accounts.values()].find((other) => referralCodeOf(other) === code)?.user.id ?? null;
      }
      Object.assign(found.user, {
        username: body.username ?? found.user.username,
        first_name: body.first_name ?? found.user.first_name,
        last_name: body.last_name ?? found.user.last_name,
        utm_source: found.user.utm_source ?? body.utm_source ?? null,
        language_code: body.language_code ?? found.user.language_code,
      });
      return { ...found.user };
    },
    async news(telegramId) {
      return { news: known(telegramId).news };
    },
    async setNews(telegramId, news) {
      known(telegramId).news = news;
      return { news };
    },
    async broadcastRecipients(audience) {
      reach('broadcastRecipients');
      const now = Date.now();
      const within = (found: StandInAccount) =>
        audience.tariff_ends_within_days === null ||
        (found.tariffEndsAt !== null &&
          found.tariffEndsAt.getTime() > now &&
          found.tariffEndsAt.getTime() <= now + audience.tariff_ends_within_days * 86_400_000);
      const matches = (found: StandInAccount) =>
        !found.blocked &&
        found.news &&
        (audience.tariff_ids === null || audience.tariff_ids.includes(found.tariff.id)) &&
        (audience.paid === null || found.paid === (audience.paid === 'ever')) &&
        (audience.balance_below === null || found.credits + found.includedCredits < audience.balance_below) &&
        (audience.linked === null || found.user.web_linked === audience.linked) &&
        (audience.utm_source === null || found.user.utm_source === audience.utm_source) &&
        within(found);
      return {
        telegram_ids: [...accounts.values()].filter(matches).map((found) => found.user.telegram_id),
      };
    },
    async adminProfile() {
      const telegramId = stand.adminTelegramId;
      const admin = telegramId === null ? null : known(telegramId);
      return {
        id: admin?.user.id ?? 999_999,
        email: 'admin@example.com',
        role: 'admin',
        created_at: at,
        tariff_id: null,
        tariff_name: 'Base',
        credits: 0,
        included_credits: 0,
        held_credits: 0,
        available_credits: 0,
        welcome_credits: 0,
        email_confirmed: true,
        monthly_price: '0.00',
        tariff_end_date: null,
        telegram_linked: telegramId !== null,
        telegram_id: telegramId,
        telegram_username: null,
        telegram_email: null,
      };
    },
    async setTelegramBlocked(telegramId, blocked) {
      reach('setTelegramBlocked');
      known(telegramId).blocked = blocked;
      return { telegram_id: telegramId, telegram_blocked_at: blocked ? new Date().toISOString() : null };
    },
    async signInLink(telegramId) {
      known(telegramId);
      return { token: randomUUID(), expires_at: new Date(Date.now() + 10 * 60_000).toISOString() };
    },
    async linkToken(telegramId, photo) {
      known(telegramId);
      stand.linkPhotos.set(telegramId, photo);
      const token = randomUUID();
      const expiresAt = new Date(Date.now() + stand.linkMinutes * 60_000);
      return { token, url: `http://127.0.0.1/link/${token}`, expires_at: expiresAt.toISOString() };
    },
    async balance(telegramId) {
      reach('balance');
      return balance(known(telegramId));
    },
    async tariffs() {
      return { success: true, tariffs: tariffRows };
    },
    async hold(holder, amount) {
      reach('hold');
      const found = 'telegramId' in holder ? known(holder.telegramId) : knownUser(holder.userId);
      if (available(found) < amount) return { available_credits: available(found) };
      const id = randomUUID();
      holds.set(id, { telegramId: found.user.telegram_id, amount });
      return {
        hold_id: id,
        amount,
        available_credits: available(found),
        expires_at: new Date(Date.now() + 600_000).toISOString(),
      };
    },
    async releaseHold(holdId) {
      holds.delete(holdId);
    },
    async createPayment(body) {
      paymentRequests.push(body);
      const found = known(body.telegram_id);
      const tariff = tariffRows.find((candidate) => candidate.id === body.tariff_id);
      const amount = tariff?.monthly_price ?? body.amount ?? '0.00';
      // The receipt e-mail auth keeps from the payer's last payment, unless the bot gives one.
      const email = body.email ?? found.user.telegram_email;
      const payment: UserPayment = {
        payment_id: randomUUID(),
        status: email ? 'pending' : 'pending_email',
        kind: tariff ? 'tariff' : 'topup',
        amount,
        credits_amount: tariff ? tariff.included_credits : Math.round(Number(amount) * found.tariff.credits_per_ruble),
        tariff_id: tariff?.id ?? null,
        description: tariff ? `Тариф ${tariff.name}` : `Пополнение на ${amount} ₽`,
        email,
        cancellation_reason: null,
        provider: 'yookassa',
        star_amount: null,
        created_at: new Date().toISOString(),
        updated_at: new Date().toISOString(),
      };
      payments.set(body.telegram_id, [payment, ...(payments.get(body.telegram_id) ?? [])]);
      return offered(payment);
    },
    async payments(telegramId) {
      const list = payments.get(telegramId) ?? [];
      return { payments: list.slice(0, 5), total: list.length };
    },
    async starInvoice() {
      throw new ServiceCallError(501, 'not_in_harness', 'Stars are tested on the whole product');
    },
    async starPreCheckout() {
      return { ok: false, error_message: 'Stars are tested on the whole product' };
    },
    async starPayment() {
      throw new ServiceCallError(501, 'not_in_harness', 'Stars are tested on the whole product');
    },
    // Renewing tariffs are tested on the whole product; here a user has none, and a consent is its text.
    async subscriptions() {
      return { subscriptions: [] };
    },
    async renewalConsent(_telegramId, tariffId) {
      const tariff = tariffRows.find((candidate) => candidate.id === tariffId)!;
      return {
        version: RENEWAL_CONSENT_VERSION,
        text: `Списывать ${tariff.monthly_price} ₽ раз в месяц за тариф «${tariff.name}»; отменить — /subscription.`,
        next_charge_at: new Date(Date.now() + 29 * 86_400_000).toISOString(),
      };
    },
    async cancelSubscription() {
      throw new ServiceCallError(404, 'subscription_not_found', 'Подписка не найдена');
    },
    async resumeSubscription() {
      throw new ServiceCallError(404, 'subscription_not_found', 'Подписка не найдена');
    },
    async supplyEmail(paymentId, email) {
      const { payment, telegramId } = paymentOf(paymentId);
      Object.assign(payment, { email, status: 'pending' });
      known(telegramId).user.telegram_email = email;
      return offered(payment);
    },
    async referrals(telegramId) {
      const found = known(telegramId);
      const code = referralCodeOf(found);
      const earned = rewards.filter((reward) => reward.referrer_id === found.user.id);
      return {
        referral_code: code,
        site_link: `http://127.0.0.1/?ref=${code}`,
        bot_start_payload: `ref_${code}`,
        invited: [...accounts.values()].filter((other) => other.referredBy === found.user.id).length,
        paying: new Set(earned.map((reward) => reward.friend_id)).size,
        credits_earned: earned.reduce((sum, reward) => sum + reward.credits, 0),
        percent: 10,
        max_credits_per_friend: 10_000,
      };
    },
    async redeemPromo(telegramId, code) {
      const found = known(telegramId);
      const upper = code.toUpperCase();
      const promo = promoCodes.get(upper);
      if (!promo) throw new ServiceCallError(404, 'promo_not_found', 'Промокод не найден');
      if (promo.redeemedBy.has(found.user.id)) {
        throw new ServiceCallError(409, 'promo_already_used', 'Вы уже активировали этот промокод');
      }
      promo.redeemedBy.add(found.user.id);
      found.credits += promo.credits;
      return {
        success: true,
        code: upper,
        kind: 'credits',
        credits: promo.credits,
        tariff_name: null,
        tariff_end_date: null,
        message: `Промокод ${upper} активирован: +${promo.credits.toLocaleString('ru-RU')} кредитов`,
      };
    },
    async models() {
      const active = modelRows.filter((row) => row.is_active);
      return { models: active.sort((a, b) => a.model.localeCompare(b.model)) };
    },
    async modes() {
      const active = modeRows.filter((row) => row.is_active);
      return { modes: active.sort((a, b) => a.sort_order - b.sort_order || a.id - b.id) };
    },
    async settings() {
      return { ...settingsValues };
    },
    async recordMessage(body, image) {
      reach('recordMessage');
      if (recorded.some((entry) => body.hold_id && entry.body.hold_id === body.hold_id)) return;
      // The charge is capped at the hold it settles, as billing caps it.
      const hold = body.hold_id ? holds.get(body.hold_id) : undefined;
      const { cost: full, ...dollars } = costOf(body);
      const cost = Math.min(Number(full), hold?.amount ?? Infinity);
      if (body.hold_id) holds.delete(body.hold_id);
      charge(body.telegram_id !== undefined ? known(body.telegram_id) : knownUser(Number(body.user_id)), cost);
      recorded.push(image ? { body, image, cost, dollars } : { body, cost, dollars });
      for (const waiter of [...recordWaiters]) waiter();
    },
  };

  const stand = Object.assign(clients, {
    welcomeCredits: 0,
    account,
    setCredits: (telegramId: number, credits: number) => void (account(telegramId).credits = credits),
    setTariff(telegramId: number, name: 'Base' | 'Premium' | 'Elite') {
      const found = account(telegramId);
      found.tariff = tariffRows.find((tariff) => tariff.name === name)!;
      found.includedCredits = found.tariff.included_credits;
    },
    tariffRows,
    linkMinutes: 15,
    linkPhotos: new Map(),
    adminTelegramId: null,
    settingsValues,
    modelRows,
    modeRows,
    addModel(name: string, prices: Partial<AiModel>) {
      const row = model(Math.max(...modelRows.map((candidate) => candidate.id)) + 1, name, prices);
      modelRows.push(row);
      return row;
    },
    addMode(fields: Pick<ChatMode, 'name' | 'emoji' | 'description' | 'system_prompt'> & Partial<ChatMode>) {
      const row: ChatMode = {
        id: modeRows.length + 1,
        is_active: true,
        sort_order: 0,
        is_default: false,
        created_at: at,
        updated_at: at,
        ...fields,
      };
      modeRows.push(row);
      return row;
    },
    recorded,
    recordedOf,
    openHolds: () => holds.size,
    referralRewarded(friendTelegramId: number, credits: number) {
      const friend = known(friendTelegramId);
      const inviter = [...accounts.values()].find((other) => other.user.id === friend.referredBy)!;
      inviter.credits += credits;
      const reward = {
        referrer_id: inviter.user.id,
        friend_id: friend.user.id,
        payment_id: randomUUID(),
        credits,
        rewarded_at: new Date().toISOString(),
      };
      rewards.push(reward);
      return reward;
    },
    cancelPayment(paymentId: string, reason: string) {
      const { payment, telegramId } = paymentOf(paymentId);
      const waitedForEmail = payment.status === 'pending_email';
      Object.assign(payment, { status: 'canceled', cancellation_reason: reason });
      return {
        payment_id: payment.payment_id,
        // A payment still waiting for its e-mail never reached the provider.
        yookassa_payment_id: waitedForEmail ? null : `yk-${payment.payment_id}`,
        user_id: known(telegramId).user.id,
        kind: payment.kind,
        tariff_id: payment.tariff_id,
        amount: payment.amount,
        currency: 'RUB' as const,
        provider: payment.provider,
        star_amount: payment.star_amount,
        subscription_id: null,
        reason,
        party: 'merchant',
        canceled_at: new Date().toISOString(),
      };
    },
    paymentRequests,
    addPromoCode: (code: string, credits: number) =>
      void promoCodes.set(code.toUpperCase(), { credits, redeemedBy: new Set() }),
    failNext: (method: keyof ServiceClients) => void failing.add(method),
    unreachable: (method: keyof ServiceClients) => void down.add(method),
    reachable: (method: keyof ServiceClients) => void down.delete(method),
  });
  return stand;
}
