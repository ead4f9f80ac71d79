import { OpenAPIRegistry, OpenApiGeneratorV31, type RouteConfig } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import {
  AdminUsersQuery,
  AdminUsersResponse,
  AdminUserUpdateRequest,
  AdminUserUpdateResponse,
  AuthResponse,
  BotLinkTokenRequest,
  BotLinkTokenResponse,
  BotTelegramBlockedRequest,
  BotTelegramBlockedResponse,
  BotUpsertUserRequest,
  BotUser,
  ChangePasswordRequest,
  ChangePasswordResponse,
  EmailConfirmationConfirmRequest,
  EmailConfirmationResponse,
  LinkAccountRequest,
  LinkAccountResponse,
  LoginRequest,
  PasswordResetAccepted,
  PasswordResetConfirmRequest,
  PasswordResetConfirmResponse,
  PasswordResetRequest,
  RegisterRequest,
  TelegramIdParams,
  UserIdParams,
  UserProfile,
  UtmStatsResponse,
} from './auth';
import {
  AdminPaymentsQuery,
  AdminPaymentsResponse,
  AdminTariffsQuery,
  AdminTariffsResponse,
  BalanceSnapshot,
  BotBalanceQuery,
  BotBalanceResponse,
  BotCreatePaymentRequest,
  BotHoldRequest,
  BotHoldResponse,
  BotPaymentEmailRequest,
  CreatePaymentRequest,
  CreatePaymentResponse,
  HoldIdParams,
  Payment,
  RefundPaymentResponse,
  BotPaymentsQuery,
  BotStarInvoiceRequest,
  BotStarInvoiceResponse,
  BotStarPreCheckoutRequest,
  BotStarPreCheckoutResponse,
  BotStarPaymentRequest,
  PaymentIdParams,
  PublicPaymentIdParams,
  PublicTariffsResponse,
  SandboxDecisionRequest,
  SandboxPayment,
  TariffIdParams,
  TariffInput,
  TariffOptionsResponse,
  TariffResponse,
  UserPayment,
  UserPaymentsQuery,
  UserPaymentsResponse,
  YookassaNotification,
} from './billing';
import {
  AdminPromoCodesQuery,
  AdminPromoCodesResponse,
  AdminReferralStats,
  BotRedeemPromoRequest,
  BotReferralsQuery,
  PromoCodeDetailResponse,
  PromoCodeIdParams,
  PromoCodeInput,
  PromoCodeResponse,
  RedeemPromoRequest,
  RedeemPromoResponse,
  ReferralSummary,
} from './growth';
import {
  AdminHistoryQueryParams,
  AdminHistoryResponse,
  AdminModelsQuery,
  AdminModelsResponse,
  AdminModesQuery,
  AdminModesResponse,
  AdminSysValsQuery,
  AdminSysValsResponse,
  AiModelInput,
  AiModelResponse,
  BotMessageRequest,
  BotModelsResponse,
  BotModesResponse,
  BotSettingsResponse,
  ChatModeInput,
  ChatModeResponse,
  HistoryExportQuery,
  HistoryIdParams,
  HistoryMessage,
  HistoryNeighbourQuery,
  MediaIdParams,
  ModeIdParams,
  ModelIdParams,
  SysValCreateRequest,
  SysValKeyParams,
  SysValResponse,
  SysValUpdateRequest,
  WelcomeOfferResponse,
} from './chat-history';
import { ErrorBody, type ServiceName, SuccessResponse } from './common';
import { EventEnvelope, eventSchemas } from './events';
import {
  AdminArticleResponse,
  AdminArticlesQuery,
  AdminArticlesResponse,
  AdminCategoriesResponse,
  AdminTagsResponse,
  ArticleDetailResponse,
  ArticleIdParams,
  ArticleImageResponse,
  ArticleMediaIdParams,
  ArticleInput,
  ArticleSearchQuery,
  ArticlesListResponse,
  ArticlesQuery,
  CategoryInput,
  CategoryResponse,
  CategorySelectResponse,
  FeedbackRequest,
  SlugParams,
  TagInput,
  TagResponse,
  TagSelectResponse,
} from './content';
import { AdminStats, StatsSeriesQuery, StatsSeriesResponse } from './metrics';
import {
  SandboxChat,
  SandboxChatQuery,
  SandboxFileParams,
  SandboxPressRequest,
  SandboxPayRequest,
  SandboxPayResponse,
  SandboxSendRequest,
  SandboxSent,
  SandboxSession,
  SandboxSessionRequest,
  SandboxUploadRequest,
  TelegramBotInfo,
  TelegramUpdate,
} from './bot';

/**
 * The route registry: every `/api` route of the product with its owning service, access rule and
 * schemas. The OpenAPI document is generated from it; the gateway may use it for access checks.
 */

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

/**
 * Who may call a route: `public` anyone; `user` any valid JWT; `admin` a JWT of an admin;
 * `bot` the `X-Bot-Key` header; `webhook` anyone, believed only after the provider check.
 */
export type RouteAccess = 'public' | 'user' | 'admin' | 'bot' | 'webhook';

export type ErrorStatus = 400 | 401 | 402 | 403 | 404 | 409 | 410 | 413 | 415 | 429 | 502 | 503;

type ParamsSchema = z.ZodObject | z.ZodPipe;

export interface ApiRoute {
  method: HttpMethod;
  /** OpenAPI style path (`/api/admin/users/{id}`); see `toExpressPath`. */
  path: string;
  service: ServiceName;
  access: RouteAccess;
  summary: string;
  description?: string;
  params?: ParamsSchema;
  query?: ParamsSchema;
  body?: z.ZodType;
  /** The body may also come as multipart/form-data (file uploads). */
  multipart?: z.ZodType;
  response: {
    status: 200 | 201 | 202 | 204;
    description: string;
    /** JSON unless `contentType` says otherwise. */
    schema?: z.ZodType;
    contentType?: string;
  };
  /** Error answers beyond those implied by access and input (401/403/400). */
  errors?: ErrorStatus[];
}

const ok = (schema: z.ZodType, description = 'OK') => ({ status: 200 as const, schema, description });
const created = (schema: z.ZodType, description = 'Created') => ({ status: 201 as const, schema, description });
const deleted = ok(SuccessResponse, 'Deleted');

const botMessageMultipart = z.object({
  telegram_id: z.string().optional(),
  user_id: z.string().optional(),
  model: z.string(),
  user_message: z.string().optional(),
  bot_response: z.string().optional(),
  input_tokens: z.string(),
  output_tokens: z.string(),
  status: z.string().optional(),
  error_message: z.string().optional(),
  image_count: z.string().optional(),
  hold_id: z.string().optional(),
  mode: z.string().optional(),
  transcription_model: z.string().optional(),
  audio_seconds: z.string().optional(),
  speech_model: z.string().optional(),
  speech_characters: z.string().optional(),
  image: z
    .string()
    .optional()
    .meta({ format: 'binary', contentMediaType: 'image/*', description: 'JPEG, PNG or WebP, up to 10 MB' }),
});

/** Every `/api` route, specific paths before parameterised ones (the order an express router needs). */
export const apiRoutes: readonly ApiRoute[] = [
  // ----- auth
  {
    method: 'post',
    path: '/api/auth/login',
    service: 'auth',
    access: 'public',
    summary: 'Вход по email и паролю',
    body: LoginRequest,
    response: ok(AuthResponse),
    errors: [401, 429],
  },
  {
    method: 'post',
    path: '/api/auth/register',
    service: 'auth',
    access: 'public',
    summary: 'Регистрация',
    body: RegisterRequest,
    response: created(AuthResponse),
    errors: [409, 429],
  },
  {
    method: 'post',
    path: '/api/auth/password-reset',
    service: 'auth',
    access: 'public',
    summary: 'Ссылка для смены пароля по email (и в бот для связанного аккаунта)',
    description: 'The same answer whether the e-mail belongs to an account or not.',
    body: PasswordResetRequest,
    response: { status: 202, schema: PasswordResetAccepted, description: 'Accepted' },
    errors: [429],
  },
  {
    method: 'post',
    path: '/api/auth/password-reset/confirm',
    service: 'auth',
    access: 'public',
    summary: 'Новый пароль по одноразовой ссылке (все прежние сессии завершаются)',
    body: PasswordResetConfirmRequest,
    response: ok(PasswordResetConfirmResponse),
    errors: [404, 409, 410],
  },
  {
    method: 'post',
    path: '/api/auth/email-confirmation',
    service: 'auth',
    access: 'user',
    summary: 'Письмо для подтверждения email ещё раз (не чаще раза в минуту и 5 раз в час)',
    response: { status: 202, schema: EmailConfirmationResponse, description: 'Sent' },
    errors: [409, 429],
  },
  {
    method: 'post',
    path: '/api/auth/email-confirmation/confirm',
    service: 'auth',
    access: 'public',
    summary: 'Подтверждение email по ссылке из письма (повторный переход тоже успешен)',
    body: EmailConfirmationConfirmRequest,
    response: ok(EmailConfirmationResponse),
    errors: [404, 410],
  },
  {
    method: 'get',
    path: '/api/auth/profile',
    service: 'auth',
    access: 'user',
    summary: 'Профиль текущего пользователя',
    response: ok(UserProfile),
    errors: [404],
  },
  {
    method: 'post',
    path: '/api/auth/change-password',
    service: 'auth',
    access: 'user',
    summary: 'Смена пароля (все прежние токены отзываются)',
    body: ChangePasswordRequest,
    response: ok(ChangePasswordResponse),
  },
  {
    method: 'post',
    path: '/api/auth/link',
    service: 'auth',
    access: 'user',
    summary: 'Связать аккаунт Telegram с аккаунтом сайта по токену',
    body: LinkAccountRequest,
    response: ok(LinkAccountResponse),
    errors: [404, 409, 410],
  },
  {
    method: 'post',
    path: '/api/bot/users',
    service: 'auth',
    access: 'bot',
    summary: 'Создать или обновить пользователя Telegram',
    body: BotUpsertUserRequest,
    response: ok(BotUser),
  },
  {
    method: 'post',
    path: '/api/bot/link-tokens',
    service: 'auth',
    access: 'bot',
    summary: 'Выдать одноразовый токен связки аккаунтов (15 минут)',
    body: BotLinkTokenRequest,
    response: created(BotLinkTokenResponse),
    errors: [404],
  },
  {
    method: 'put',
    path: '/api/bot/users/{telegram_id}/blocked',
    service: 'auth',
    access: 'bot',
    summary: 'Отметить, что пользователь заблокировал бота (или снова пишет ему)',
    params: TelegramIdParams,
    body: BotTelegramBlockedRequest,
    response: ok(BotTelegramBlockedResponse),
    errors: [404],
  },
  {
    method: 'get',
    path: '/api/admin/users',
    service: 'auth',
    access: 'admin',
    summary: 'Список пользователей',
    query: AdminUsersQuery,
    response: ok(AdminUsersResponse),
  },
  {
    method: 'put',
    path: '/api/admin/users/{id}',
    service: 'auth',
    access: 'admin',
    summary: 'Изменить пользователя (email, роль, тариф, пополнение)',
    params: UserIdParams,
    body: AdminUserUpdateRequest,
    response: ok(AdminUserUpdateResponse),
    errors: [404, 409, 503],
  },
  {
    method: 'delete',
    path: '/api/admin/users/{id}',
    service: 'auth',
    access: 'admin',
    summary: 'Удалить пользователя',
    params: UserIdParams,
    response: deleted,
    errors: [404, 409],
  },
  {
    method: 'get',
    path: '/api/admin/utm/stats',
    service: 'auth',
    access: 'admin',
    summary: 'Пользователи по utm_source',
    response: ok(UtmStatsResponse),
  },

  // ----- content
  {
    method: 'get',
    path: '/api/articles',
    service: 'content',
    access: 'public',
    summary: 'Опубликованные статьи',
    query: ArticlesQuery,
    response: ok(ArticlesListResponse),
  },
  {
    method: 'get',
    path: '/api/articles/search',
    service: 'content',
    access: 'public',
    summary: 'Поиск статей',
    query: ArticleSearchQuery,
    response: ok(ArticlesListResponse),
  },
  {
    method: 'get',
    path: '/api/articles/category/{slug}',
    service: 'content',
    access: 'public',
    summary: 'Статьи категории',
    params: SlugParams,
    query: ArticlesQuery,
    response: ok(ArticlesListResponse),
    errors: [404],
  },
  {
    method: 'get',
    path: '/api/articles/tag/{slug}',
    service: 'content',
    access: 'public',
    summary: 'Статьи с тегом',
    params: SlugParams,
    query: ArticlesQuery,
    response: ok(ArticlesListResponse),
    errors: [404],
  },
  {
    method: 'get',
    path: '/api/articles/{slug}',
    service: 'content',
    access: 'public',
    summary: 'Статья (считает просмотр) и похожие статьи',
    params: SlugParams,
    response: ok(ArticleDetailResponse),
    errors: [404],
  },
  {
    method: 'get',
    path: '/api/article_categories/select',
    service: 'content',
    access: 'public',
    summary: 'Категории для выбора',
    response: ok(CategorySelectResponse),
  },
  {
    method: 'get',
    path: '/api/article_tags/select',
    service: 'content',
    access: 'public',
    summary: 'Теги для выбора',
    response: ok(TagSelectResponse),
  },
  {
    method: 'post',
    path: '/api/feedback',
    service: 'content',
    access: 'public',
    summary: 'Сообщение из формы обратной связи',
    body: FeedbackRequest,
    response: created(SuccessResponse),
    errors: [429],
  },
  {
    method: 'get',
    path: '/api/admin/articles',
    service: 'content',
    access: 'admin',
    summary: 'Список статей',
    query: AdminArticlesQuery,
    response: ok(AdminArticlesResponse),
  },
  {
    method: 'post',
    path: '/api/admin/articles',
    service: 'content',
    access: 'admin',
    summary: 'Создать статью',
    body: ArticleInput,
    response: created(AdminArticleResponse),
    errors: [409],
  },
  {
    method: 'post',
    path: '/api/admin/article_media',
    service: 'content',
    access: 'admin',
    summary: 'Загрузить изображение для текста статьи (PNG, JPEG, WebP или GIF, не больше 5 МБ; тип по содержимому)',
    multipart: z.object({
      image: z
        .string()
        .meta({ format: 'binary', contentMediaType: 'image/*', description: 'PNG, JPEG, WebP or GIF, up to 5 MB' }),
    }),
    response: created(ArticleImageResponse),
    errors: [413, 415],
  },
  {
    method: 'get',
    path: '/api/article_media/{id}',
    service: 'content',
    access: 'public',
    summary: 'Изображение из текста статьи (кешируется навсегда: адрес не меняет содержимого)',
    params: ArticleMediaIdParams,
    response: {
      status: 200,
      description: 'PNG, JPEG, WebP или GIF',
      schema: z.string().meta({ format: 'binary' }),
      contentType: 'image/*',
    },
    errors: [404],
  },
  {
    method: 'get',
    path: '/api/admin/articles/{id}',
    service: 'content',
    access: 'admin',
    summary: 'Статья для редактирования',
    params: ArticleIdParams,
    response: ok(AdminArticleResponse),
    errors: [404],
  },
  {
    method: 'put',
    path: '/api/admin/articles/{id}',
    service: 'content',
    access: 'admin',
    summary: 'Изменить статью',
    params: ArticleIdParams,
    body: ArticleInput,
    response: ok(AdminArticleResponse),
    errors: [404, 409],
  },
  {
    method: 'delete',
    path: '/api/admin/articles/{id}',
    service: 'content',
    access: 'admin',
    summary: 'Удалить статью',
    params: ArticleIdParams,
    response: deleted,
    errors: [404],
  },
  {
    method: 'get',
    path: '/api/admin/article_categories',
    service: 'content',
    access: 'admin',
    summary: 'Категории (управление)',
    response: ok(AdminCategoriesResponse),
  },
  {
    method: 'post',
    path: '/api/admin/article_categories',
    service: 'content',
    access: 'admin',
    summary: 'Создать категорию',
    body: CategoryInput,
    response: created(CategoryResponse),
    errors: [409],
  },
  {
    method: 'put',
    path: '/api/admin/article_categories/{id}',
    service: 'content',
    access: 'admin',
    summary: 'Изменить категорию',
    params: ArticleIdParams,
    body: CategoryInput,
    response: ok(CategoryResponse),
    errors: [404, 409],
  },
  {
    method: 'delete',
    path: '/api/admin/article_categories/{id}',
    service: 'content',
    access: 'admin',
    summary: 'Удалить категорию (снимается со статей)',
    params: ArticleIdParams,
    response: deleted,
    errors: [404],
  },
  {
    method: 'get',
    path: '/api/admin/article_tags',
    service: 'content',
    access: 'admin',
    summary: 'Теги (управление)',
    response: ok(AdminTagsResponse),
  },
  {
    method: 'post',
    path: '/api/admin/article_tags',
    service: 'content',
    access: 'admin',
    summary: 'Создать тег',
    body: TagInput,
    response: created(TagResponse),
    errors: [409],
  },
  {
    method: 'put',
    path: '/api/admin/article_tags/{id}',
    service: 'content',
    access: 'admin',
    summary: 'Изменить тег',
    params: ArticleIdParams,
    body: TagInput,
    response: ok(TagResponse),
    errors: [404, 409],
  },
  {
    method: 'delete',
    path: '/api/admin/article_tags/{id}',
    service: 'content',
    access: 'admin',
    summary: 'Удалить тег (снимается со статей)',
    params: ArticleIdParams,
    response: deleted,
    errors: [404],
  },

  // ----- billing
  {
    method: 'get',
    path: '/api/tariffs',
    service: 'billing',
    access: 'public',
    summary: 'Активные тарифы',
    response: ok(PublicTariffsResponse),
  },
  {
    method: 'post',
    path: '/api/billing/payments',
    service: 'billing',
    access: 'user',
    summary: 'Создать платёж: пополнение или покупка тарифа',
    body: CreatePaymentRequest,
    response: created(CreatePaymentResponse),
    errors: [404, 502],
  },
  {
    method: 'get',
    path: '/api/billing/payments',
    service: 'billing',
    access: 'user',
    summary: 'Свои платежи, новые первыми: дата, покупка, сумма, статус, email для чека',
    query: UserPaymentsQuery,
    response: ok(UserPaymentsResponse),
  },
  {
    method: 'get',
    path: '/api/billing/payments/{id}',
    service: 'billing',
    access: 'user',
    summary: 'Свой платёж по payment_id (страница результата оплаты)',
    params: PublicPaymentIdParams,
    response: ok(UserPayment),
    errors: [404],
  },
  {
    method: 'get',
    path: '/api/billing/balance',
    service: 'billing',
    access: 'user',
    summary: 'Свой баланс: кредиты, включённые кредиты, тариф, сумма пополнений',
    response: ok(BalanceSnapshot),
  },
  {
    method: 'get',
    path: '/api/billing/sandbox/payments/{id}',
    service: 'billing',
    access: 'public',
    summary: 'Платёж песочницы для страницы подтверждения (только без ключей ЮKassa)',
    params: PublicPaymentIdParams,
    response: ok(SandboxPayment),
    errors: [404],
  },
  {
    method: 'post',
    path: '/api/billing/sandbox/payments/{id}/decision',
    service: 'billing',
    access: 'public',
    summary: 'Оплатить или отменить платёж песочницы; уведомление идёт тем же путём, что от ЮKassa',
    params: PublicPaymentIdParams,
    body: SandboxDecisionRequest,
    response: ok(SandboxPayment),
    errors: [404, 409],
  },
  {
    method: 'post',
    path: '/api/billing/webhooks/yookassa',
    service: 'billing',
    access: 'webhook',
    summary: 'Уведомление ЮKassa (платёж перепроверяется через API ЮKassa)',
    body: YookassaNotification,
    response: ok(SuccessResponse),
    errors: [403, 503],
  },
  {
    method: 'get',
    path: '/api/admin/tariffs/all',
    service: 'billing',
    access: 'admin',
    summary: 'Все тарифы для выпадающих списков',
    response: ok(TariffOptionsResponse),
  },
  {
    method: 'get',
    path: '/api/admin/tariffs',
    service: 'billing',
    access: 'admin',
    summary: 'Список тарифов',
    query: AdminTariffsQuery,
    response: ok(AdminTariffsResponse),
  },
  {
    method: 'post',
    path: '/api/admin/tariffs',
    service: 'billing',
    access: 'admin',
    summary: 'Создать тариф',
    body: TariffInput,
    response: created(TariffResponse),
    errors: [409],
  },
  {
    method: 'put',
    path: '/api/admin/tariffs/{id}',
    service: 'billing',
    access: 'admin',
    summary: 'Изменить тариф',
    params: TariffIdParams,
    body: TariffInput,
    response: ok(TariffResponse),
    errors: [404, 409],
  },
  {
    method: 'delete',
    path: '/api/admin/tariffs/{id}',
    service: 'billing',
    access: 'admin',
    summary: 'Удалить тариф (нельзя, пока он у пользователей)',
    params: TariffIdParams,
    response: deleted,
    errors: [404, 409],
  },
  {
    method: 'get',
    path: '/api/admin/payments',
    service: 'billing',
    access: 'admin',
    summary: 'Список платежей',
    query: AdminPaymentsQuery,
    response: ok(AdminPaymentsResponse),
  },
  {
    method: 'get',
    path: '/api/admin/payments/{id}',
    service: 'billing',
    access: 'admin',
    summary: 'Платёж',
    params: PaymentIdParams,
    response: ok(Payment),
    errors: [404],
  },
  {
    method: 'get',
    path: '/api/billing/referrals',
    service: 'billing',
    access: 'user',
    summary: 'Пригласить друга: свой код, ссылки и что они принесли',
    response: ok(ReferralSummary),
  },
  {
    method: 'post',
    path: '/api/billing/promo-codes/redeem',
    service: 'billing',
    access: 'user',
    summary: 'Активировать промокод',
    body: RedeemPromoRequest,
    response: ok(RedeemPromoResponse),
    errors: [404, 409, 410, 429],
  },
  {
    method: 'get',
    path: '/api/bot/referrals',
    service: 'billing',
    access: 'bot',
    summary: 'Пригласить друга для пользователя Telegram',
    query: BotReferralsQuery,
    response: ok(ReferralSummary),
    errors: [404],
  },
  {
    method: 'post',
    path: '/api/bot/promo-codes/redeem',
    service: 'billing',
    access: 'bot',
    summary: 'Активировать промокод пользователя Telegram',
    body: BotRedeemPromoRequest,
    response: ok(RedeemPromoResponse),
    errors: [404, 409, 410, 429],
  },
  {
    method: 'get',
    path: '/api/admin/referrals/stats',
    service: 'billing',
    access: 'admin',
    summary: 'Рефералы за текущий месяц: приглашены, платят, выплачено кредитов',
    response: ok(AdminReferralStats),
  },
  {
    method: 'get',
    path: '/api/admin/promo-codes',
    service: 'billing',
    access: 'admin',
    summary: 'Список промокодов',
    query: AdminPromoCodesQuery,
    response: ok(AdminPromoCodesResponse),
  },
  {
    method: 'post',
    path: '/api/admin/promo-codes',
    service: 'billing',
    access: 'admin',
    summary: 'Создать промокод',
    body: PromoCodeInput,
    response: created(PromoCodeResponse),
    errors: [404, 409],
  },
  {
    method: 'get',
    path: '/api/admin/promo-codes/{id}',
    service: 'billing',
    access: 'admin',
    summary: 'Промокод и кто его использовал',
    params: PromoCodeIdParams,
    response: ok(PromoCodeDetailResponse),
    errors: [404],
  },
  {
    method: 'put',
    path: '/api/admin/promo-codes/{id}',
    service: 'billing',
    access: 'admin',
    summary: 'Изменить промокод (в том числе отключить)',
    params: PromoCodeIdParams,
    body: PromoCodeInput,
    response: ok(PromoCodeResponse),
    errors: [404, 409],
  },
  {
    method: 'delete',
    path: '/api/admin/promo-codes/{id}',
    service: 'billing',
    access: 'admin',
    summary: 'Удалить промокод (только неиспользованный)',
    params: PromoCodeIdParams,
    response: deleted,
    errors: [404, 409],
  },
  {
    method: 'post',
    path: '/api/admin/payments/{id}/refund',
    service: 'billing',
    access: 'admin',
    summary: 'Вернуть платёж (картой — через ЮKassa, звёздами — через Telegram)',
    description:
      'Кредиты платежа (или тариф и его включённые кредиты) списываются отдельной записью «Возврат платежа N»; ' +
      'если часть уже потрачена — 409 с числом недостающих кредитов. Повторный вызов не возвращает деньги второй раз.',
    params: PaymentIdParams,
    response: ok(RefundPaymentResponse),
    errors: [404, 409, 502, 503],
  },
  {
    method: 'get',
    path: '/api/bot/payments',
    service: 'billing',
    access: 'bot',
    summary: 'Последние платежи пользователя Telegram (для /paysupport)',
    query: BotPaymentsQuery,
    response: ok(UserPaymentsResponse),
    errors: [404],
  },
  {
    method: 'post',
    path: '/api/bot/payments',
    service: 'billing',
    access: 'bot',
    summary: 'Создать платёж пользователя Telegram',
    body: BotCreatePaymentRequest,
    response: created(CreatePaymentResponse),
    errors: [404, 502],
  },
  {
    method: 'patch',
    path: '/api/bot/payments/{id}/email',
    service: 'billing',
    access: 'bot',
    summary: 'Указать email для чека платежа в статусе pending_email',
    params: PublicPaymentIdParams,
    body: BotPaymentEmailRequest,
    response: ok(CreatePaymentResponse),
    errors: [404, 409, 502],
  },
  {
    method: 'post',
    path: '/api/bot/stars/invoices',
    service: 'billing',
    access: 'bot',
    summary: 'Счёт в звёздах Telegram на пакет пополнения или тариф (payload — id сохранённой цены)',
    body: BotStarInvoiceRequest,
    response: created(BotStarInvoiceResponse),
    errors: [404, 409],
  },
  {
    method: 'post',
    path: '/api/bot/stars/pre-checkout',
    service: 'billing',
    access: 'bot',
    summary: 'Проверка pre_checkout_query: счёт наш, цена та же, пользователь есть',
    body: BotStarPreCheckoutRequest,
    response: ok(BotStarPreCheckoutResponse),
  },
  {
    method: 'post',
    path: '/api/bot/stars/payments',
    service: 'billing',
    access: 'bot',
    summary: 'Записать successful_payment: один раз на telegram_payment_charge_id',
    body: BotStarPaymentRequest,
    response: ok(UserPayment),
    errors: [404, 409],
  },
  {
    method: 'get',
    path: '/api/bot/balance',
    service: 'billing',
    access: 'bot',
    summary: 'Баланс пользователя Telegram и можно ли отправить платный запрос',
    query: BotBalanceQuery,
    response: ok(BotBalanceResponse),
    errors: [404],
  },
  {
    method: 'post',
    path: '/api/bot/holds',
    service: 'billing',
    access: 'bot',
    summary: 'Зарезервировать кредиты перед вызовом модели (не больше доступного)',
    description:
      'Резерв уменьшает доступный баланс до списания; сообщение, записанное с hold_id, списывает не больше суммы резерва и закрывает его. ' +
      'Неиспользованный резерв истекает сам (HOLD_TTL_SEC).',
    body: BotHoldRequest,
    response: created(BotHoldResponse),
    errors: [402, 404],
  },
  {
    method: 'delete',
    path: '/api/bot/holds/{id}',
    service: 'billing',
    access: 'bot',
    summary: 'Снять резерв (повторный вызов и уже закрытый резерв — тоже 204)',
    params: HoldIdParams,
    response: { status: 204, description: 'Released' },
    errors: [404],
  },

  // ----- chat-history
  {
    method: 'get',
    path: '/api/admin/models',
    service: 'chat-history',
    access: 'admin',
    summary: 'Список моделей',
    query: AdminModelsQuery,
    response: ok(AdminModelsResponse),
  },
  {
    method: 'post',
    path: '/api/admin/models',
    service: 'chat-history',
    access: 'admin',
    summary: 'Добавить модель',
    body: AiModelInput,
    response: created(AiModelResponse),
    errors: [409],
  },
  {
    method: 'put',
    path: '/api/admin/models/{id}',
    service: 'chat-history',
    access: 'admin',
    summary: 'Изменить модель',
    params: ModelIdParams,
    body: AiModelInput,
    response: ok(AiModelResponse),
    errors: [404, 409],
  },
  {
    method: 'delete',
    path: '/api/admin/models/{id}',
    service: 'chat-history',
    access: 'admin',
    summary: 'Удалить модель',
    params: ModelIdParams,
    response: deleted,
    errors: [404],
  },
  {
    method: 'get',
    path: '/api/admin/modes',
    service: 'chat-history',
    access: 'admin',
    summary: 'Список режимов чата (поиск q по названию, описанию и промпту)',
    query: AdminModesQuery,
    response: ok(AdminModesResponse),
  },
  {
    method: 'post',
    path: '/api/admin/modes',
    service: 'chat-history',
    access: 'admin',
    summary: 'Добавить режим чата (режим по умолчанию — ровно один)',
    body: ChatModeInput,
    response: created(ChatModeResponse),
    errors: [409],
  },
  {
    method: 'put',
    path: '/api/admin/modes/{id}',
    service: 'chat-history',
    access: 'admin',
    summary: 'Изменить режим чата',
    params: ModeIdParams,
    body: ChatModeInput,
    response: ok(ChatModeResponse),
    errors: [404, 409],
  },
  {
    method: 'delete',
    path: '/api/admin/modes/{id}',
    service: 'chat-history',
    access: 'admin',
    summary: 'Удалить режим чата (кроме режима по умолчанию)',
    params: ModeIdParams,
    response: deleted,
    errors: [404, 409],
  },
  {
    method: 'get',
    path: '/api/admin/history',
    service: 'chat-history',
    access: 'admin',
    summary: 'История сообщений (pageSize и limit равнозначны)',
    query: AdminHistoryQueryParams,
    response: ok(AdminHistoryResponse),
  },
  {
    method: 'get',
    path: '/api/admin/history/export',
    service: 'chat-history',
    access: 'admin',
    summary:
      'Выгрузка отфильтрованной истории в CSV (потоком): format=csv — запятые, точки, даты ISO в UTC; format=excel — для русского Excel: «;», десятичные запятые, московское время',
    query: HistoryExportQuery,
    response: {
      status: 200,
      description: 'CSV, UTF-8 с BOM',
      schema: z.string(),
      contentType: 'text/csv',
    },
  },
  {
    method: 'get',
    path: '/api/admin/history/prev/{id}',
    service: 'chat-history',
    access: 'admin',
    summary: 'Предыдущее (более новое) сообщение',
    params: HistoryIdParams,
    query: HistoryNeighbourQuery,
    response: ok(HistoryMessage),
    errors: [404],
  },
  {
    method: 'get',
    path: '/api/admin/history/next/{id}',
    service: 'chat-history',
    access: 'admin',
    summary: 'Следующее (более старое) сообщение',
    params: HistoryIdParams,
    query: HistoryNeighbourQuery,
    response: ok(HistoryMessage),
    errors: [404],
  },
  {
    method: 'get',
    path: '/api/admin/history/{id}',
    service: 'chat-history',
    access: 'admin',
    summary: 'Сообщение целиком',
    params: HistoryIdParams,
    response: ok(HistoryMessage),
    errors: [404],
  },
  {
    method: 'get',
    path: '/api/admin/sys_vals',
    service: 'chat-history',
    access: 'admin',
    summary: 'Системные настройки',
    query: AdminSysValsQuery,
    response: ok(AdminSysValsResponse),
  },
  {
    method: 'post',
    path: '/api/admin/sys_vals',
    service: 'chat-history',
    access: 'admin',
    summary: 'Добавить настройку',
    body: SysValCreateRequest,
    response: created(SysValResponse),
    errors: [409],
  },
  {
    method: 'put',
    path: '/api/admin/sys_vals/{key}',
    service: 'chat-history',
    access: 'admin',
    summary: 'Изменить значение настройки',
    params: SysValKeyParams,
    body: SysValUpdateRequest,
    response: ok(SysValResponse),
    errors: [404],
  },
  {
    method: 'delete',
    path: '/api/admin/sys_vals/{key}',
    service: 'chat-history',
    access: 'admin',
    summary: 'Удалить настройку',
    params: SysValKeyParams,
    response: deleted,
    errors: [404],
  },
  {
    method: 'post',
    path: '/api/bot/messages',
    service: 'chat-history',
    access: 'bot',
    summary: 'Записать сообщение бота (стоимость считается по ценам модели)',
    body: BotMessageRequest,
    multipart: botMessageMultipart,
    response: created(HistoryMessage),
    errors: [404, 413, 415],
  },
  {
    method: 'get',
    path: '/api/bot/models',
    service: 'chat-history',
    access: 'bot',
    summary: 'Активные модели',
    response: ok(BotModelsResponse),
  },
  {
    method: 'get',
    path: '/api/bot/modes',
    service: 'chat-history',
    access: 'bot',
    summary: 'Активные режимы чата по порядку',
    response: ok(BotModesResponse),
  },
  {
    method: 'get',
    path: '/api/bot/settings',
    service: 'chat-history',
    access: 'bot',
    summary: 'Все настройки как словарь ключ → значение',
    response: ok(BotSettingsResponse),
  },
  {
    method: 'get',
    path: '/api/welcome_offer',
    service: 'chat-history',
    access: 'public',
    summary:
      'Приветственные кредиты нового пользователя и стоимость типичного сообщения (500 + 500 токенов) с моделью по умолчанию',
    response: ok(WelcomeOfferResponse),
  },
  {
    method: 'get',
    path: '/api/media/{id}',
    service: 'chat-history',
    access: 'public',
    summary: 'Изображение, приложенное к сообщению (адрес случайный и неугадываемый)',
    params: MediaIdParams,
    response: {
      status: 200,
      description: 'JPEG, PNG или WebP',
      schema: z.string().meta({ format: 'binary' }),
      contentType: 'image/*',
    },
    errors: [404],
  },

  // ----- metrics
  {
    method: 'get',
    path: '/api/admin/stats',
    service: 'metrics',
    access: 'admin',
    summary: 'Показатели панели администратора',
    response: ok(AdminStats),
    errors: [503],
  },
  {
    method: 'get',
    path: '/api/admin/stats/series',
    service: 'metrics',
    access: 'admin',
    summary: 'Показатели по дням для графика',
    query: StatsSeriesQuery,
    response: ok(StatsSeriesResponse),
  },
  // bot
  {
    method: 'post',
    path: '/api/telegram/webhook',
    service: 'bot',
    access: 'webhook',
    summary: 'Обновление от Telegram (режим вебхука)',
    description: 'Принимается только с верным заголовком X-Telegram-Bot-Api-Secret-Token.',
    body: TelegramUpdate,
    response: { status: 200, description: 'Обновление принято' },
  },
  {
    method: 'get',
    path: '/api/telegram/info',
    service: 'bot',
    access: 'public',
    summary: 'Имя бота в Telegram и ссылка на него',
    response: ok(TelegramBotInfo),
  },
  {
    method: 'post',
    path: '/api/telegram/sandbox/session',
    service: 'bot',
    access: 'public',
    summary: 'Песочница Telegram: псевдопользователь этого браузера (HttpOnly-cookie)',
    description:
      'Only while the bot runs on its local sandbox (no TELEGRAM_BOT_TOKEN, outside production, SITE_URL on this ' +
      'machine); 404 otherwise. Sets the HttpOnly cookie that every /api/telegram/sandbox/chat… call needs; a ' +
      'browser that has one gets its user back unless it asks for a fresh one. New users are limited per minute, ' +
      'and the least recently seen user is forgotten when the sandbox is full.',
    body: SandboxSessionRequest,
    response: ok(SandboxSession),
    errors: [404, 429],
  },
  {
    method: 'get',
    path: '/api/telegram/sandbox/chat',
    service: 'bot',
    access: 'public',
    summary: 'Песочница Telegram: чат псевдопользователя с ботом (долгий опрос изменений)',
    description:
      'The chat of the user behind the sandbox cookie (401 without one); 404 when the sandbox is off. ' +
      'The bot itself calls the sandbox Bot API at /api/telegram/sandbox/bot<token>/<method> in Telegram’s format.',
    query: SandboxChatQuery,
    response: ok(SandboxChat),
    errors: [401, 404, 429],
  },
  {
    method: 'post',
    path: '/api/telegram/sandbox/chat/messages',
    service: 'bot',
    access: 'public',
    summary: 'Песочница Telegram: сообщение или команда боту',
    body: SandboxSendRequest,
    response: created(SandboxSent),
    errors: [401, 404, 429],
  },
  {
    method: 'post',
    path: '/api/telegram/sandbox/chat/uploads',
    service: 'bot',
    access: 'public',
    summary: 'Песочница Telegram: фото или документ боту',
    body: SandboxUploadRequest,
    response: created(SandboxSent),
    errors: [401, 404, 413, 429],
  },
  {
    method: 'post',
    path: '/api/telegram/sandbox/chat/buttons',
    service: 'bot',
    access: 'public',
    summary: 'Песочница Telegram: нажатие кнопки под сообщением бота',
    body: SandboxPressRequest,
    response: ok(SandboxSent),
    errors: [401, 404, 429],
  },
  {
    method: 'post',
    path: '/api/telegram/sandbox/chat/payments',
    service: 'bot',
    access: 'public',
    summary: 'Песочница Telegram: оплата счёта бота звёздами (pre_checkout_query, затем successful_payment)',
    body: SandboxPayRequest,
    response: ok(SandboxPayResponse),
    errors: [404],
  },
  {
    method: 'get',
    path: '/api/telegram/sandbox/chat/files/{file_id}',
    service: 'bot',
    access: 'public',
    summary: 'Песочница Telegram: файл из чата (фото показываются, прочее скачивается)',
    description: 'Only a file of the chat behind the sandbox cookie.',
    params: SandboxFileParams,
    response: {
      status: 200,
      description: 'Файл',
      schema: z.string().meta({ format: 'binary' }),
      contentType: 'application/octet-stream',
    },
    errors: [401, 404],
  },
];

/** `/api/admin/users/{id}` → `/api/admin/users/:id`. */
export function toExpressPath(path: string): string {
  return path.replace(/\{([A-Za-z0-9_]+)\}/g, ':$1');
}

const errorDescriptions: Record<ErrorStatus | 500, string> = {
  400: 'Некорректные данные (validation_error и др.)',
  401: 'Нет токена, токен неверен, истёк или отозван; для бота — неверный X-Bot-Key',
  402: 'Недостаточно кредитов (insufficient_credits)',
  403: 'Недостаточно прав',
  404: 'Не найдено',
  409: 'Конфликт с текущим состоянием',
  410: 'Срок действия истёк или уже использовано',
  413: 'Слишком большой запрос',
  415: 'Неподдерживаемый тип содержимого',
  429: 'Слишком много запросов (заголовок Retry-After)',
  500: 'Внутренняя ошибка сервера',
  502: 'Внешний сервис ответил ошибкой',
  503: 'Сервис временно недоступен',
};

const serviceDescriptions: Record<ServiceName, string> = {
  auth: 'Учётные записи, вход, связка с Telegram, пользователи (auth)',
  content: 'Статьи, категории, теги, обратная связь (content)',
  billing: 'Тарифы, платежи ЮKassa, кредиты (billing)',
  'chat-history': 'Модели, режимы чата, история сообщений, системные настройки (chat-history)',
  metrics: 'Панель администратора (metrics)',
  bot: 'Telegram-бот: вебхук и сведения о боте (bot)',
};

function operationId(route: ApiRoute): string {
  const words = route.path
    .replace(/^\/api\//, '')
    .split(/[/_-]/)
    .filter((word) => word !== '')
    .map((word) => {
      const param = /^\{(.+)\}$/.exec(word);
      const text = param ? `by_${param[1]}` : word;
      return text
        .split('_')
        .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
        .join('');
    });
  return route.method + words.join('');
}

function securityOf(access: RouteAccess): RouteConfig['security'] {
  if (access === 'user' || access === 'admin') return [{ bearerAuth: [] }];
  if (access === 'bot') return [{ botKey: [] }];
  return [];
}

function errorStatuses(route: ApiRoute): (ErrorStatus | 500)[] {
  const statuses = new Set<ErrorStatus | 500>(route.errors ?? []);
  if (route.body || route.query || route.params || route.multipart) statuses.add(400);
  if (route.access === 'user' || route.access === 'admin' || route.access === 'bot') statuses.add(401);
  if (route.access === 'admin') statuses.add(403);
  statuses.add(500);
  return [...statuses].sort((a, b) => a - b);
}

function toRouteConfig(route: ApiRoute): RouteConfig {
  const errorResponses = Object.fromEntries(
    errorStatuses(route).map((status) => [
      status,
      { description: errorDescriptions[status], content: { 'application/json': { schema: ErrorBody } } },
    ]),
  );
  const bodyContent: Record<string, { schema: z.ZodType }> = {};
  if (route.body) bodyContent['application/json'] = { schema: route.body };
  if (route.multipart) bodyContent['multipart/form-data'] = { schema: route.multipart };
  const accessNote =
    route.access === 'admin'
      ? 'Только для администратора (JWT с ролью admin).'
      : route.access === 'webhook'
        ? 'Публичный адрес для уведомлений провайдера; уведомлению верят только после повторного запроса платежа.'
        : undefined;
  const description = [route.description, accessNote].filter(Boolean).join(' ');
  return {
    method: route.method,
    path: route.path,
    operationId: operationId(route),
    summary: route.summary,
    ...(description ? { description } : {}),
    tags: [route.service],
    security: securityOf(route.access),
    request: {
      ...(route.params ? { params: route.params } : {}),
      ...(route.query ? { query: route.query } : {}),
      ...(Object.keys(bodyContent).length > 0 ? { body: { required: true, content: bodyContent } } : {}),
    },
    responses: {
      [route.response.status]: {
        description: route.response.description,
        ...(route.response.schema
          ? { content: { [route.response.contentType ?? 'application/json']: { schema: route.response.schema } } }
          : {}),
      },
      ...errorResponses,
    },
  };
}

/** Builds the OpenAPI 3.1 document of every `/api` route (served by the gateway at /api/openapi.json). */
export function buildOpenApiDocument(): ReturnType<OpenApiGeneratorV31['generateDocument']> {
  const registry = new OpenAPIRegistry();
  registry.registerComponent('securitySchemes', 'bearerAuth', {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'JWT',
    description: 'Токен из ответа /api/auth/login или /api/auth/register',
  });
  registry.registerComponent('securitySchemes', 'botKey', {
    type: 'apiKey',
    in: 'header',
    name: 'X-Bot-Key',
    description: 'Общий ключ Telegram-бота (BOT_API_KEY)',
  });
  for (const route of apiRoutes) registry.registerPath(toRouteConfig(route));
  // Event schemas are not used by any route; listing them documents the bus messages too. (They are
  // passed as `schema` definitions: a bare zod 4 schema has a `type` field the generator mistakes.)
  const eventDefinitions = [EventEnvelope, ...Object.values(eventSchemas)].map((schema) => ({
    type: 'schema' as const,
    schema,
  }));
  const generator = new OpenApiGeneratorV31([...registry.definitions, ...eventDefinitions], {
    sortComponents: 'alphabetically',
  });
  return generator.generateDocument({
    openapi: '3.1.0',
    info: {
      title: 'GPT-шлюз: API сайта',
      version: '1.0.0',
      description:
        'API сайта доступа к языковым моделям через Telegram-бота. Суммы в рублях и долларах передаются ' +
        'точными десятичными строками ("350.00", "0.000150"), кредиты — целыми числами, даты — ISO-8601. ' +
        'Ошибки: { error, code, details? }.',
    },
    servers: [{ url: '/' }],
    tags: (Object.keys(serviceDescriptions) as ServiceName[]).map((name) => ({
      name,
      description: serviceDescriptions[name],
    })),
  });
}
