import {
  PAYMENT_EMAIL_NOT_GIVEN,
  PAYMENT_STATUS_LABELS,
  escapeHtml,
  formatRoubles,
  type AiModel,
  type BotBalanceResponse,
  type ChatMode,
  type CreatePaymentResponse,
  type PublicTariff,
  type UserPayment,
  type ReferralSummary,
  SUBSCRIPTION_STATUS_LABELS,
  declineReasonText,
  formatChargeDay,
  type SubscriptionNoticeData,
  type UserSubscription,
} from '@gpt/contracts';

/** Everything the bot says, in one place: natural Russian, Telegram HTML with every value escaped. */

const number = new Intl.NumberFormat('ru-RU');
export const credits = (value: number) => number.format(value);
const date = (iso: string) =>
  new Intl.DateTimeFormat('ru-RU', {
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    timeZone: 'Europe/Moscow',
  }).format(new Date(iso));

const time = (iso: string) =>
  new Intl.DateTimeFormat('ru-RU', { hour: '2-digit', minute: '2-digit', timeZone: 'Europe/Moscow' }).format(
    new Date(iso),
  );

const pluralRules = new Intl.PluralRules('ru-RU');
/** The word's form for a whole number: `one` for 1, 21…, `few` for 2–4, 22…, `many` for the rest. */
const plural = (value: number, forms: { one: string; few: string; many: string }) => {
  const form = pluralRules.select(Math.abs(value));
  return form === 'one' || form === 'few' ? forms[form] : forms.many;
};

/** «1 кредит», «2 кредита», «5 кредитов». */
export const creditsWord = (value: number) => plural(value, { one: 'кредит', few: 'кредита', many: 'кредитов' });
/** «тариф Premium», «тарифы Premium и Elite». */
const tariffsText = (names: string[]) =>
  `${names.length === 1 ? 'тариф' : 'тарифы'} ${escapeHtml(new Intl.ListFormat('ru-RU').format(names))}`;
/** «на тарифе Premium», «на тарифах Premium и Elite». */
const onTariffsText = (names: string[]) =>
  `на ${names.length === 1 ? 'тарифе' : 'тарифах'} ${escapeHtml(new Intl.ListFormat('ru-RU').format(names))}`;
const creditsText = (value: number) => `${credits(value)} ${creditsWord(value)}`;

/** The user's chat mode as the welcome and /balance show it. */
export const modeLine = (mode: ChatMode | undefined) =>
  mode ? [`🎭 Режим: <b>${escapeHtml(`${mode.emoji} ${mode.name}`)}</b> — сменить: /mode`] : [];

export function balanceLines(balance: BotBalanceResponse): string[] {
  const tariff = balance.tariff.end_date
    ? `${escapeHtml(balance.tariff.name)} (до ${date(balance.tariff.end_date)})`
    : escapeHtml(balance.tariff.name);
  const lines = [`💰 Доступно: <b>${creditsText(balance.available_credits)}</b>`];
  if (balance.included_credits > 0) lines.push(`   из них по тарифу: ${creditsText(balance.included_credits)}`);
  if (balance.held_credits > 0)
    lines.push(`   зарезервировано под текущий ответ: ${creditsText(balance.held_credits)}`);
  lines.push(`📦 Тариф: <b>${tariff}</b>`);
  return lines;
}

/** YooKassa's cancellation reasons a payer can act on, in their words; others get no explanation. */
const CANCEL_REASONS: Record<string, string> = {
  expired_on_confirmation: 'время на оплату истекло',
  insufficient_funds: 'на карте недостаточно средств',
  card_expired: 'срок действия карты истёк',
  invalid_card_number: 'неверный номер карты',
  invalid_csc: 'неверный код CVC/CVV',
  '3d_secure_failed': 'платёж не подтверждён в банке',
  payment_method_limit_exceeded: 'превышен лимит платежей по карте',
  canceled_by_merchant: 'платёж отменён',
  [PAYMENT_EMAIL_NOT_GIVEN]: 'e-mail для чека так и не был указан',
};

export const texts = {
  /**
   * `gift`: the welcome grant and roughly how many messages of the default model it buys, on the
   * first contact only; `imageTariffs`: the tariffs on which /image draws.
   */
  welcome: (
    firstName: string | null,
    balance: BotBalanceResponse,
    sandbox: boolean,
    gift: { credits: number; messages: number | null; model: string } | null,
    imageTariffs: string[],
    mode: ChatMode | undefined,
  ) =>
    [
      `Здравствуйте${firstName ? `, ${escapeHtml(firstName)}` : ''}! 👋`,
      '',
      'Я даю доступ к моделям GPT прямо в Telegram:',
      '• отвечаю на вопросы и помню ход разговора;',
      '• понимаю фотографии и читаю документы (.txt, .md, .pdf, .docx);',
      ...(imageTariffs.length > 0
        ? [`• рисую картинки по описанию — команда /image (${tariffsText(imageTariffs)});`]
        : []),
      '• слушаю голосовые сообщения и могу отвечать голосом — /settings;',
      '• работаю в разных режимах (переводчик, редактор, программист…) — /mode.',
      '',
      ...(gift
        ? [
            `🎁 Вам в подарок <b>${creditsText(gift.credits)}</b>.`,
            ...(gift.messages === null
              ? []
              : [`Сообщений с моделью ${escapeHtml(gift.model)} на них: примерно <b>${credits(gift.messages)}</b>.`]),
            '',
          ]
        : []),
      ...balanceLines(balance),
      ...modeLine(mode),
      '',
      'Просто напишите вопрос. /new — начать новый разговор, /help — все команды.',
      ...(sandbox ? ['', '🧪 Сейчас бот работает в тестовом режиме: ответы не от настоящей модели.'] : []),
    ].join('\n'),

  help: [
    '<b>Что я умею</b>',
    '',
    'Напишите вопрос — отвечу выбранной моделью с учётом разговора.',
    'Пришлите фото — опишу и отвечу на вопрос в подписи.',
    'Пришлите документ (.txt, .md, .pdf, .docx) — отвечу на вопрос из подписи по его тексту.',
    'Пришлите голосовое сообщение или аудиофайл — распознаю речь и отвечу.',
    'Ответьте (reply) на моё сообщение — учту его в ответе, даже после /new.',
    '',
    '/new — начать новый разговор',
    '/model — выбрать модель',
    '/mode — выбрать режим (переводчик, редактор, программист…)',
    '/instructions — ваши личные инструкции для модели',
    '/settings — настройки: ответы голосом, новости и акции',
    '/image &lt;описание&gt; — нарисовать картинку',
    '/balance — баланс и тариф',
    '/buy — пополнить баланс или купить тариф (звёздами Telegram или картой)',
    '/paysupport — помощь с оплатой и возвраты',
    '/terms — условия (публичная оферта)',
    '/link — связать с аккаунтом на сайте',
    '/web — открыть этот разговор в браузере',
    '/ref — пригласить друга и получать бонусы',
    '/promo КОД — активировать промокод',
    '/help — эта справка',
  ].join('\n'),

  balance: (balance: BotBalanceResponse, linked: boolean, mode: ChatMode | undefined) =>
    [
      ...balanceLines(balance),
      ...modeLine(mode),
      linked ? '🔗 Аккаунт связан с сайтом: баланс общий.' : '🔗 Аккаунт не связан с сайтом — /link.',
    ].join('\n'),

  newConversation: '🆕 Начали новый разговор. Предыдущие сообщения я больше не учитываю.',
  thinking: '⏳ Думаю…',
  typingCursor: ' ▍',

  models: (models: AiModel[], current: string, per1000: (model: AiModel) => { input: number; output: number }) =>
    [
      '<b>Выберите модель</b>',
      '',
      ...models.map((model) => {
        const price = per1000(model);
        const mark = model.model === current ? '✅ ' : '';
        const about = model.description ? ` — ${escapeHtml(model.description)}` : '';
        return `${mark}<b>${escapeHtml(model.model)}</b>${about}\n   ${credits(price.input)} / ${credits(price.output)} кредитов за 1 000 токенов (вопрос / ответ)`;
      }),
    ].join('\n'),
  modelChosen: (model: string) => `✅ Теперь отвечает модель <b>${escapeHtml(model)}</b>.`,
  modelUnavailable: 'Эта модель больше недоступна. Выберите другую: /model',
  noModels: 'Сейчас нет доступных моделей. Попробуйте позже.',

  insufficient: (needed: number, available: number) =>
    [
      '😔 Недостаточно кредитов для ответа.',
      `Нужно до ${creditsText(needed)}, доступно ${creditsText(Math.max(available, 0))}.`,
      'Пополните баланс, и я сразу отвечу.',
    ].join('\n'),
  lowBalance: (available: number) =>
    `⚠️ На балансе осталось ${creditsText(Math.max(available, 0))}. Пополните его, чтобы разговор не прервался.`,
  rateLimited: (retryAfterSec: number) =>
    `Слишком много сообщений подряд. Подождите ${retryAfterSec} с и напишите снова.`,
  modelFailed: '😔 Не удалось получить ответ модели. Кредиты не списаны — попробуйте ещё раз чуть позже.',
  serviceDown: '😔 Сервис временно недоступен. Попробуйте ещё раз через минуту.',
  /** The pre-checkout's decline when billing could not be asked (Telegram declines it after 10 s anyway). */
  preCheckoutUnchecked: 'Не удалось проверить счёт. Попробуйте ещё раз через минуту.',
  passwordReset: (expiresAt: string) =>
    [
      '🔑 На сайте запросили смену пароля: ссылка отправлена на e-mail аккаунта.',
      `Она действует до ${time(expiresAt)} (МСК) и срабатывает один раз.`,
      'Если это были не вы, ничего не делайте: пароль останется прежним.',
    ].join('\n'),
  passwordResetLink: (url: string, expiresAt: string) =>
    [
      `🔑 На сайте запросили смену пароля. Задать новый пароль: <a href="${escapeHtml(url)}">${escapeHtml(url)}</a>`,
      `Ссылка действует до ${time(expiresAt)} (МСК) и срабатывает один раз.`,
      'Если это были не вы, не открывайте её: пароль останется прежним.',
    ].join('\n'),
  answerCut: '\n\n<i>Ответ обрезан: достигнут предел длины ответа.</i>',
  answerBroken:
    '\n\n<i>⚠️ Ответ прервался на полуслове: модель перестала отвечать. Кредиты не списаны — спросите ещё раз.</i>',
  answerInterrupted: '⚠️ Ответ был прерван: бот перезапускался. Кредиты не списаны — просто отправьте вопрос ещё раз.',
  answerStopped: '\n\n<i>⏹ Ответ остановлен: списано только за сказанное.</i>',
  answerStoppedEmpty: '⏹ Ответ остановлен до первых слов. Кредиты не списаны.',
  answerRunning:
    '⏳ В этом разговоре ещё идёт ответ на вопрос с сайта. Дождитесь его или остановите на сайте и спросите снова.',
  webLink: (minutes: number) =>
    `🌐 Нажмите кнопку, чтобы открыть этот разговор в браузере: тот же баланс, те же чаты. Ссылка входит на сайт под вашим аккаунтом один раз и действует ${minutes} ${plural(minutes, { one: 'минуту', few: 'минуты', many: 'минут' })}. Никому её не пересылайте.`,

  imageUsage: 'Напишите, что нарисовать, например:\n<code>/image кот-астронавт в стиле акварели</code>',
  imageNotInTariff: (imageTariffs: string[]) =>
    imageTariffs.length > 0
      ? `🎨 Генерация изображений доступна ${onTariffsText(imageTariffs)}. Выберите тариф, и я нарисую что угодно.`
      : '🎨 Генерация изображений сейчас не входит ни в один тариф.',
  imageDrawing: '🎨 Рисую…',
  imageCaption: (prompt: string) => `🎨 ${escapeHtml(prompt.length > 900 ? `${prompt.slice(0, 900)}…` : prompt)}`,
  noImageModel: 'Генерация изображений сейчас недоступна. Попробуйте позже.',

  photoDefaultQuestion: 'Опиши это изображение.',
  documentDefaultQuestion: 'Кратко перескажи этот документ.',
  documentTooLarge: (maxMb: number) => `Файл слишком большой: я читаю документы до ${maxMb} МБ.`,
  documentTruncated: (chars: number) => `\n\n<i>Документ длинный: я прочитал первые ${credits(chars)} символов.</i>`,
  unsupportedMessage:
    'Я понимаю текст, голосовые сообщения, аудиофайлы, фотографии и документы (.txt, .md, .pdf, .docx).',

  heard: (transcript: string) => `🎙 <i>${escapeHtml(transcript)}</i>`,
  voiceTooLong: (maxSeconds: number) =>
    `Сообщение слишком длинное: я распознаю голосовые и аудио до ${maxSeconds % 60 === 0 ? `${maxSeconds / 60} мин` : `${maxSeconds} с`}. Кредиты не списаны.`,
  voiceEmpty: '🎙 В сообщении не слышно речи. Кредиты не списаны — запишите ещё раз.',
  voiceUnreadable:
    '🎙 Не удалось распознать аудио: файл повреждён или в неподдерживаемом формате. Пришлите голосовое сообщение или файл .ogg (Opus), .mp3, .m4a или .wav. Кредиты не списаны.',
  voiceUnavailable: 'Распознавание голоса сейчас недоступно. Напишите вопрос текстом.',
  voiceTrimmed: 'Озвучено начало ответа: целиком он выше текстом.',
  voiceFailed: '🔇 Не удалось озвучить ответ — он выше текстом. Озвучивание не списано.',

  settings: (voiceReplies: boolean, news: boolean) =>
    [
      '<b>Настройки</b>',
      '',
      `🔊 Отвечать голосом: <b>${voiceReplies ? 'включено' : 'выключено'}</b>`,
      'Когда включено, каждый ответ приходит ещё и голосовым сообщением (озвучивание оплачивается кредитами).',
      '',
      `📰 Новости и акции: <b>${news ? 'включены' : 'выключены'}</b>`,
      'Рассылки о новых моделях, скидках и вашем тарифе.',
    ].join('\n'),
  voiceRepliesSet: (on: boolean) => (on ? '🔊 Теперь я отвечаю и голосом.' : '🔇 Теперь я отвечаю только текстом.'),
  newsSet: (on: boolean) =>
    on
      ? '📰 Новости и акции включены: рассылки снова будут приходить.'
      : '🔕 Новости и акции выключены: рассылок больше не будет. Включить — /settings.',
  openChat: '💬 Напишите вопрос — я отвечу. /new начинает новый разговор, /model выбирает модель.',
  /** Under every broadcast message: how to stop them. */
  broadcastFooter: '<i>Не хотите получать рассылки? /settings → «Новости и акции».</i>',

  modes: (modes: ChatMode[], current: ChatMode | undefined) =>
    [
      '<b>Выберите режим</b>',
      'Режим задаёт, как модель отвечает. Смена режима начинает новый разговор.',
      '',
      ...modes.map(
        (mode) =>
          `${mode.id === current?.id ? '✅ ' : ''}${escapeHtml(mode.emoji)} <b>${escapeHtml(mode.name)}</b> — ${escapeHtml(mode.description)}`,
      ),
    ].join('\n'),
  modeChosen: (mode: ChatMode) =>
    `${escapeHtml(mode.emoji)} Режим <b>${escapeHtml(mode.name)}</b>. Начали новый разговор.`,
  modeUnavailable: 'Этот режим больше недоступен. Выберите другой: /mode',
  noModes: 'Сейчас нет доступных режимов.',

  instructionsAsk: [
    '<b>Личные инструкции</b>',
    '',
    'Напишите одним сообщением, что модели учитывать в каждом ответе, например: «отвечай кратко», «я врач, объясняй с терминами».',
    'До 1 000 символов. /cancel — отмена.',
  ].join('\n'),
  instructionsShow: (instructions: string) =>
    ['<b>Ваши личные инструкции</b>', '', `<blockquote>${escapeHtml(instructions)}</blockquote>`].join('\n'),
  instructionsSaved: '✅ Инструкции сохранены: модель учтёт их в каждом ответе.',
  instructionsDeleted: '🗑 Инструкции удалены.',
  instructionsTooLong: (length: number, max: number) =>
    `Слишком длинно: ${credits(length)} символов, можно до ${credits(max)}. Сократите и пришлите ещё раз.`,
  instructionsCanceled: 'Хорошо, инструкции не меняю.',

  buy: (tariffs: PublicTariff[]) =>
    [
      '<b>Пополнение и тарифы</b>',
      '',
      'Пополнить баланс: выберите сумму — кредиты начисляются по курсу вашего тарифа.',
      'Оплатить можно звёздами Telegram или картой.',
      '',
      ...tariffs
        .filter((tariff) => Number(tariff.monthly_price) > 0)
        .map(
          (tariff) =>
            `<b>${escapeHtml(tariff.name)}</b> — ${formatRoubles(tariff.monthly_price)} в месяц: ${creditsText(tariff.included_credits)} сразу, ${credits(tariff.credits_per_ruble)} кредитов за 1 ₽${tariff.can_generate_images ? ', генерация изображений' : ''}.`,
        ),
    ].join('\n'),
  /** What was chosen in /buy, and the question of how to pay for it. */
  payWays: (target: { roubles: number } | PublicTariff) =>
    [
      'roubles' in target
        ? `<b>Пополнение на ${formatRoubles(String(target.roubles))}</b>`
        : `<b>Тариф «${escapeHtml(target.name)}» — ${formatRoubles(target.monthly_price)} в месяц</b>`,
      'Как оплатить?',
    ].join('\n'),
  askEmail: '📧 Для чека нужен e-mail. Напишите его одним сообщением — я запомню его для следующих оплат.',
  badEmail: 'Это не похоже на e-mail. Напишите адрес вида name@example.ru или нажмите «Отмена».',
  emailCanceled: 'Хорошо, оплату отменил. Выбрать сумму или тариф снова — /buy.',
  payment: (payment: CreatePaymentResponse) =>
    [
      payment.kind === 'topup'
        ? `💳 Пополнение баланса: +${creditsText(payment.credits_amount)}.`
        : `💳 ${escapeHtml(payment.description)}: +${creditsText(payment.credits_amount)} сразу.`,
      `Сумма: <b>${formatRoubles(payment.amount)}</b>.`,
      'Нажмите кнопку, чтобы оплатить картой.',
    ].join('\n'),
  paymentFailed: (reason: string) => `Не удалось создать платёж: ${escapeHtml(reason)}`,
  /** YooKassa canceled the payment (the payer left, the bank declined, the time ran out); `reason` is its code. */
  paymentCanceled: (amount: string, reason: string | null) =>
    [
      `❌ Оплата ${formatRoubles(amount)} не прошла${reason && CANCEL_REASONS[reason] ? `: ${CANCEL_REASONS[reason]}` : ''}.`,
      'Кредиты не начислены. Можно попробовать ещё раз.',
    ].join('\n'),
  paymentNotCompleted: (amount: string) =>
    [
      `😔 Оплата ${formatRoubles(amount)} не завершена: платёжный сервис её не подтвердил.`,
      'Кредиты не начислены. Можно попробовать ещё раз.',
    ].join('\n'),
  paymentTopUp: (amount: number) => `✅ Оплата получена: +${creditsText(amount)}.`,
  /** An admin refunded a payment: the money (or the stars) went back, and what it gave left the balance. */
  paymentRefunded: (payment: { amount: string; star_amount: number | null; kind: string; credits_amount: number }) =>
    [
      `↩️ Платёж ${formatRoubles(payment.amount)} возвращён${payment.star_amount ? `: ${credits(payment.star_amount)} ⭐ вернулись в Telegram` : ''}.`,
      payment.kind === 'tariff'
        ? `Тариф и его ${creditsText(payment.credits_amount)} списаны с баланса.`
        : `${creditsText(payment.credits_amount)} списаны с баланса.`,
    ].join('\n'),
  paymentTariff: (tariff: string, amount: number, endDate: string | null) =>
    `✅ Оплата получена: тариф <b>${escapeHtml(tariff)}</b>${endDate ? ` до ${date(endDate)}` : ''}, +${creditsText(amount)}.`,

  /** `minutes`: how long the link stays valid. */
  link: (minutes: number) =>
    `Нажмите кнопку, чтобы связать Telegram с аккаунтом на сайте. После входа баланс и тариф станут общими. Ссылка действует ${minutes} ${plural(minutes, { one: 'минуту', few: 'минуты', many: 'минут' })}.`,
  linked: (balance: BotBalanceResponse) =>
    [
      '🔗 Готово: Telegram связан с аккаунтом на сайте. Баланс и тариф теперь общие.',
      '',
      ...balanceLines(balance),
    ].join('\n'),
  alreadyLinked: 'Ваш Telegram уже связан с аккаунтом на сайте. Баланс общий.',
  unlinked:
    '🔓 Telegram отвязан от аккаунта на сайте: его кредиты и история остались там. Здесь вы продолжаете с новым аккаунтом. Связать снова — /link.',

  /** /paysupport: where to get help, the last payments, how refunds work. */
  paySupport: (siteUrl: string, payments: UserPayment[]) =>
    [
      '<b>Помощь с оплатой</b>',
      '',
      `Если платёж не прошёл, кредиты не пришли или нужен возврат — напишите нам через форму ${escapeHtml(siteUrl)}/contact, укажите ваш Telegram и номер платежа.`,
      '',
      payments.length === 0 ? 'Платежей пока нет.' : '<b>Последние платежи</b>',
      ...payments.map(
        (payment) =>
          `${date(payment.created_at)} · ${escapeHtml(payment.description ?? '')} · ${formatRoubles(payment.amount)}${payment.star_amount ? ` (${credits(payment.star_amount)} ⭐)` : ''} · ${PAYMENT_STATUS_LABELS[payment.status]}${payment.cancellation_reason && CANCEL_REASONS[payment.cancellation_reason] ? `: ${CANCEL_REASONS[payment.cancellation_reason]}` : ''}\n<code>${escapeHtml(payment.payment_id)}</code>`,
      ),
      '',
      '<b>Возвраты</b>',
      'Возврат делает администратор: деньги возвращаются тем же способом — на карту или звёздами в Telegram, а кредиты платежа (или тариф и его кредиты) списываются с баланса. Если часть кредитов уже потрачена, платёж вернуть нельзя.',
    ].join('\n'),
  /** An admin's answer to the user's message from the site's contact form. */
  supportAnswer: (subject: string, answer: string) =>
    `📩 <b>Ответ на ваше обращение «${escapeHtml(subject)}»</b>\n\n${escapeHtml(answer)}`,
  terms: (siteUrl: string) =>
    `Условия использования и оплаты — в публичной оферте: ${escapeHtml(siteUrl)}/offer\nПокупая кредиты или тариф, вы соглашаетесь с ней.`,
  starsInvoiceFailed: (reason: string) => `Не удалось выставить счёт в звёздах: ${escapeHtml(reason)}`,
  starsNotRecorded: 'Оплата звёздами получена, но не записана. Напишите в /paysupport — мы зачислим её вручную.',
  referrals: (summary: ReferralSummary, botLink: string | null) =>
    [
      '🎁 <b>Пригласить друга</b>',
      '',
      `С каждой оплаты друга вы получите ${summary.percent}% купленных им кредитов${
        summary.max_credits_per_friend > 0 ? ` (до ${creditsText(summary.max_credits_per_friend)} с одного друга)` : ''
      }.`,
      '',
      `Ссылка на сайт: ${escapeHtml(summary.site_link)}`,
      ...(botLink ? [`Ссылка на бота: ${escapeHtml(botLink)}`] : []),
      '',
      `Приглашено: <b>${credits(summary.invited)}</b>`,
      `Оплатили: <b>${credits(summary.paying)}</b>`,
      `Заработано: <b>${creditsText(summary.credits_earned)}</b>`,
    ].join('\n'),
  referralRewarded: (amount: number) =>
    `🎁 Бонус за друга: ваш друг оплатил покупку, вам начислено +${creditsText(amount)}.`,
  promoUsage: 'Напишите код после команды, например: <code>/promo SPRING2026</code>',
  promoRedeemed: (message: string) => `🎉 ${escapeHtml(message)}`,
  promoRefused: (reason: string) => `😔 ${escapeHtml(reason)}`,
  promoTooMany: (seconds: number) => `Слишком много попыток. Попробуйте снова через ${Math.ceil(seconds / 60)} мин.`,
};

export const buttons = {
  model: '🤖 Модель',
  balance: '💰 Баланс',
  topUp: '💳 Пополнить',
  site: '🌐 Сайт',
  link: '🔗 Связать с сайтом',
  openInBrowser: '🌐 Открыть в браузере',
  retryPayment: '🔁 Попробовать снова',
  cancel: 'Отмена',
  pay: (amount: string) => `Оплатить ${formatRoubles(amount)}`,
  topUpAmount: (amount: number) => `+${formatRoubles(String(amount))}`,
  tariff: (tariff: PublicTariff) => `${tariff.name} — ${formatRoubles(tariff.monthly_price)}`,
  /** The two ways to pay for what was chosen in /buy. */
  stars: '⭐ Оплатить звёздами',
  card: '💳 Картой',
  image: '🎨 Нарисовать',
  voiceReplies: (on: boolean) => (on ? '🔊 Отвечать голосом: вкл' : '🔇 Отвечать голосом: выкл'),
  news: (on: boolean) => (on ? '📰 Новости и акции: вкл' : '🔕 Новости и акции: выкл'),
  openChat: '💬 Открыть чат',
  modes: '🎭 Режим',
  mode: (mode: ChatMode, current: boolean) => `${current ? '✅ ' : ''}${mode.emoji} ${mode.name}`,
  editInstructions: '✏️ Изменить',
  deleteInstructions: '🗑 Удалить',
};

/** Bot commands for Telegram's menu. */
export const COMMANDS = [
  { command: 'start', description: 'Начало работы' },
  { command: 'new', description: 'Новый разговор' },
  { command: 'model', description: 'Выбрать модель' },
  { command: 'mode', description: 'Выбрать режим' },
  { command: 'instructions', description: 'Личные инструкции' },
  { command: 'settings', description: 'Настройки: ответы голосом, новости' },
  { command: 'image', description: 'Нарисовать картинку' },
  { command: 'balance', description: 'Баланс и тариф' },
  { command: 'buy', description: 'Пополнить баланс' },
  { command: 'subscription', description: 'Автопродление тарифа' },
  { command: 'link', description: 'Связать с сайтом' },
  { command: 'web', description: 'Открыть чат в браузере' },
  { command: 'paysupport', description: 'Помощь с оплатой' },
  { command: 'terms', description: 'Условия и оферта' },
  { command: 'ref', description: 'Пригласить друга' },
  { command: 'promo', description: 'Активировать промокод' },
  { command: 'help', description: 'Справка' },
];

/** /subscription and what billing tells a subscription's owner (docs/money.md, Subscriptions). */
export const subscriptionTexts = {
  none: [
    '🔁 Автопродления у вас нет.',
    'Тариф можно оплачивать звёздами: Telegram сам продлевает подписку каждые 30 дней, а отменить её можно здесь же в любой момент. Автопродление картой включается при покупке тарифа картой — здесь в /buy или на сайте.',
  ].join('\n'),
  list: (subscriptions: UserSubscription[]) =>
    subscriptions
      .map((subscription) => {
        const price =
          subscription.method === 'telegram_stars'
            ? `${credits(subscription.star_price ?? 0)} ⭐ каждые 30 дней, подписка Telegram`
            : `${formatRoubles(subscription.price)} в месяц${subscription.card ? `, карта ${subscription.card}` : ''}`;
        const next = subscription.next_charge_at
          ? `\nСледующее списание: ${formatChargeDay(subscription.next_charge_at)}`
          : '';
        return [
          `🔁 Тариф <b>${escapeHtml(subscription.tariff_name)}</b>: ${price}.`,
          `${SUBSCRIPTION_STATUS_LABELS[subscription.status]}. Оплачено до: ${formatChargeDay(subscription.paid_until)}${next}`,
        ].join('\n');
      })
      .join('\n\n'),
  offer: 'Оформить подписку за звёзды на тариф:',
  canceled: (subscription: UserSubscription) =>
    `✅ Автопродление тарифа «${escapeHtml(subscription.tariff_name)}» отменено: списаний больше не будет. Тариф действует до ${formatChargeDay(subscription.paid_until)}.`,
  resumed: (subscription: UserSubscription) =>
    `🔁 Подписка на тариф «${escapeHtml(subscription.tariff_name)}» снова продлевается, следующее списание: ${formatChargeDay(subscription.paid_until)}`,
  starsLink: (tariff: string, stars: number) =>
    `🔁 Подписка на тариф «${escapeHtml(tariff)}»: ${credits(stars)} ⭐ каждые 30 дней. Telegram продлевает её сам; отменить можно в любой момент командой /subscription. Нажмите кнопку, чтобы оформить.`,
  failed: (reason: string) => `Не получилось: ${escapeHtml(reason)}`,
  telegramRefused: 'Telegram не принял изменение подписки. Попробуйте ещё раз чуть позже.',
  /** «Продлевать автоматически» by card: the consent billing renders, agreed to by one press. */
  consent: (text: string) =>
    [
      '🔁 <b>Продлевать автоматически</b>',
      '',
      escapeHtml(text),
      '',
      'Нажмите «Согласен, оплатить», чтобы оплатить картой и включить автопродление. Оплатить без автопродления — «💳 Картой» в /buy.',
    ].join('\n'),
  /** A notice of billing; null when the bot says nothing (a Stars payment is announced by «Оплата получена»). */
  notice: (notice: SubscriptionNoticeData): string | null => {
    const tariff = `«${escapeHtml(notice.tariff_name)}»`;
    const price =
      notice.method === 'telegram_stars' ? `${credits(notice.star_amount ?? 0)} ⭐` : formatRoubles(notice.amount);
    const card = notice.card ? ` с карты ${notice.card}` : '';
    const cancel = 'Отменить автопродление — /subscription или в личном кабинете на сайте.';
    switch (notice.kind) {
      case 'started':
        return notice.method === 'card'
          ? `🔁 Автопродление тарифа ${tariff} включено: ${price} в месяц${card}. ${cancel}`
          : null;
      case 'renewed':
        return notice.method === 'card'
          ? `✅ Тариф ${tariff} продлён до ${formatChargeDay(notice.paid_until)}: списано ${price}${card}.`
          : null;
      case 'reminder':
        return `⏰ ${formatChargeDay(notice.charge_at ?? notice.paid_until)} будет списано ${price}${card} за следующий месяц тарифа ${tariff}. ${cancel}`;
      case 'declined':
        return [
          `⚠️ Не удалось продлить тариф ${tariff}: ${declineReasonText(notice.reason)}.`,
          notice.charge_at
            ? `Попробуем снова ${formatChargeDay(notice.charge_at)}, тариф пока действует.`
            : 'Тариф пока действует.',
        ].join('\n');
      case 'card_needed':
        return `⚠️ Тариф ${tariff} не продлится сам: ${declineReasonText(notice.reason)}. Он действует до ${formatChargeDay(notice.paid_until)}; чтобы продлить, оплатите тариф другой картой — /buy.`;
      case 'ended':
        return `Автопродление тарифа ${tariff} закончилось: оплата не прошла. Купить тариф снова — /buy.`;
      case 'canceled':
        return `Автопродление тарифа ${tariff} отменено: списаний больше не будет. Тариф действует до ${formatChargeDay(notice.paid_until)}.`;
    }
  },
};

export const subscriptionButtons = {
  cancelCard: 'Отменить автопродление',
  cancelStars: 'Отменить подписку',
  resumeStars: 'Возобновить подписку',
  subscribe: (tariff: string) => `🔁 Подписка за звёзды: ${tariff}`,
  pay: '⭐ Оформить подписку',
  cardRenewing: '🔁 Картой, продлевать автоматически',
  agree: '✅ Согласен, оплатить',
};
