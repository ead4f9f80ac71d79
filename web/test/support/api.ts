/** Calls the product's JSON API the way the web app does: optional bearer token or bot key; answers status and body. */
export async function callApi<T = Record<string, unknown>>(
  baseUrl: string,
  method: string,
  path: string,
  options: { body?: unknown; token?: string; botKey?: string } = {},
): Promise<{ status: number; body: T }> {
  const headers: Record<string, string> = { 'Content-Type': 'application/json' };
  if (options.token) headers.Authorization = `Bearer ${options.token}`;
  if (options.botKey) headers['X-Bot-Key'] = options.botKey;
  const res = await fetch(`${baseUrl}${path}`, {
    method,
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  return { status: res.status, body: (await res.json()) as T };
}

/** Stack settings for browser journeys that sign many users up and in: cheap hashing, no login limits. */
export const MANY_USERS_ENV = {
  ARGON2_MEMORY_KIB: '8192',
  ARGON2_TIME_COST: '1',
  RATE_LIMIT_LOGIN_POINTS: '1000',
  RATE_LIMIT_REGISTER_POINTS: '1000',
};
