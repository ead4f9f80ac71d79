export { loadContentConfig } from './config';
export { contentService } from './service';
