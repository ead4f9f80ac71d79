export { loadChatHistoryConfig } from './config';
export { chatHistoryService } from './service';
