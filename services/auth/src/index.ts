export { loadAuthConfig } from './config';
export { authService } from './service';
