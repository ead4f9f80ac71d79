export { loadBotConfig, shutdownBudgetMs, type BotConfig } from './config';
export { createBotService } from './service';
