/** Names and fixed texts of the site shown in several places. */
export const site = {
  name: 'GPT Бот',
  tagline: 'Нейросети GPT в Telegram',
  /** The site's first year: the footer shows it to this year (docs/product.md, Limits: 2024). */
  copyrightYear: 2024,
  /** One name for each legal page: the header's menu, the footer and the page's heading say the same. */
  offerTitle: 'Публичная оферта',
  privacyTitle: 'Согласие на обработку персональных данных',
} as const;
