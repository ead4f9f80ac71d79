export { loadBillingConfig } from './config';
export { billingService } from './service';
