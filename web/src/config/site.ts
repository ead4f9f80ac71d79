/** Names and fixed texts of the site shown in several places. */
export const site = {
  name: 'GPT Бот',
  tagline: 'Нейросети GPT в Telegram',
  /** The footer shows this year (spec §9). */
  copyrightYear: 2024,
} as const;
