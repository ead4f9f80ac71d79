import {
  BalanceSnapshot,
  ErrorBody,
  type InternalAdminAdjustmentRequest,
  internalAdjustmentsPath,
} from '@gpt/contracts';
import { AppError, CallInTransactionError, serviceFetch } from '@gpt/kit';
import type { AuthConfig } from '../config';
import { authErrors } from './errors';

/** Refusals of billing the admin should read as they are (an unknown tariff, a bad amount). */
const PASSED_THROUGH = new Set([400, 404, 409, 422]);

/**
 * The internal call to billing for the admin's deposit and tariff change. A billing that cannot
 * be reached, answers 5xx or does not know the route yet is 'Биллинг недоступен' (503).
 */
export function billingClient(config: Pick<AuthConfig, 'BILLING_URL' | 'BILLING_TIMEOUT_MS'>) {
  return {
    async adjust(
      request: InternalAdminAdjustmentRequest,
      forward: { authorization?: string; requestId?: string; address?: string; userAgent?: string },
    ): Promise<BalanceSnapshot> {
      let response: Response;
      try {
        response = await serviceFetch(new URL(internalAdjustmentsPath(request.user_id), config.BILLING_URL), {
          method: 'POST',
          headers: {
            'Content-Type': 'application/json',
            ...(forward.authorization ? { Authorization: forward.authorization } : {}),
            ...(forward.requestId ? { 'X-Request-Id': forward.requestId } : {}),
            // The admin's address and browser, for billing's audit entry.
            ...(forward.address ? { 'X-Forwarded-For': forward.address } : {}),
            ...(forward.userAgent ? { 'User-Agent': forward.userAgent } : {}),
          },
          body: JSON.stringify(request),
          signal: AbortSignal.timeout(config.BILLING_TIMEOUT_MS),
        });
      } catch (err) {
        if (err instanceof CallInTransactionError) throw err;
        throw authErrors.billingUnavailable();
      }
      const body: unknown = await response.json().catch(() => undefined);
      if (response.ok) {
        const snapshot = BalanceSnapshot.safeParse(body);
        if (snapshot.success && snapshot.data.user_id === request.user_id) return snapshot.data;
        throw authErrors.billingUnavailable();
      }
      const error = ErrorBody.safeParse(body);
      const routeMissing = response.status === 404 && error.data?.code === 'not_found';
      if (error.success && PASSED_THROUGH.has(response.status) && !routeMissing) {
        throw new AppError(error.data.error, error.data.code, response.status);
      }
      throw authErrors.billingUnavailable();
    },
  };
}

export type BillingClient = ReturnType<typeof billingClient>;
