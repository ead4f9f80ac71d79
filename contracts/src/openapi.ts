import { OpenAPIRegistry, OpenApiGeneratorV31, type RouteConfig } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { ErrorBody, type ServiceName } from './common';
import { EventEnvelope, eventSchemas } from './events';
import { type ApiRoute, apiRoutes, type ErrorStatus, type RouteAccess } from './routes';

/** The OpenAPI document of the route list; the list itself and its helpers are `routes.ts`, re-exported here. */
export * from './routes';

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
  422: 'Ключ Idempotency-Key уже использован с другим запросом',
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

/** What an idempotent route reads besides its body: the client's key of this action. */
const IdempotencyHeaders = z.object({
  'Idempotency-Key': z
    .string()
    .min(1)
    .max(255)
    .optional()
    .meta({
      description:
        'Ключ действия (до 255 символов, например UUID): повтор с тем же ключом и телом получает первый ответ ' +
        'без второго изменения, с другим телом — 422, пока первый запрос выполняется — 409',
    }),
});

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
  if (route.idempotent) for (const status of [409, 422] as const) statuses.add(status);
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
    operationId: route.id,
    summary: route.summary,
    ...(description ? { description } : {}),
    tags: [route.service],
    security: securityOf(route.access),
    request: {
      ...(route.params ? { params: route.params } : {}),
      ...(route.query ? { query: route.query } : {}),
      ...(route.idempotent ? { headers: IdempotencyHeaders } : {}),
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
