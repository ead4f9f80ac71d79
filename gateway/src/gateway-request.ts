import { IncomingMessage } from 'node:http';
import type { ServiceName } from './route-table';

/**
 * The request object of the gateway's server (passed to createServer as `IncomingMessage`), so the
 * per-request state has a fixed shape instead of properties bolted on later.
 */
export class GatewayRequest extends IncomingMessage {
  /** X-Request-Id, taken from the caller or made here; sent upstream and back. */
  requestId = '';
  /** performance.now() when the request arrived, for the access log. */
  startedAt = 0;
  /** The service the request is proxied to, if any. */
  service: ServiceName | undefined = undefined;
  /** A body the gateway had to read (login, for the per-account limit): written upstream as it came. */
  bufferedBody: Buffer | undefined = undefined;
  /** Called with the upstream's status once it answers. */
  onUpstreamResponse: ((status: number) => void) | undefined = undefined;
}
