export { loadBillingConfig, YOOKASSA_PUBLISHED_IPS } from './config';
export { billingService } from './service';
