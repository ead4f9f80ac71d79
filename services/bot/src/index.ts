export { loadBotConfig, type BotConfig } from './config';
export { createBotService } from './service';
