export { buildGateway, type Gateway, type GatewayDeps } from './app';
export { type GatewayConfig, GatewayConfigSchema, loadGatewayConfig } from './config';
export { ROUTE_TABLE, type RouteRule, type ServiceName, SERVICES } from './route-table';
export { type RunningGateway, startGateway, type StartGatewayOptions } from './start';
export type { InProcessServices } from './upstreams';
