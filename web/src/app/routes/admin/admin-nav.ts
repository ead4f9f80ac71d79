import type { IconName } from '@/components/ui/icons';
import { paths } from '@/config/paths';

export interface AdminNavItem {
  to: string;
  label: string;
  icon: IconName;
  /** Match the path exactly (the dashboard is the prefix of every other entry). */
  end?: boolean;
  /** A count shown beside the label: the support requests nobody has handled yet. */
  count?: 'supportUnread';
}

/** Sidebar entries in the order of docs/product.md, Screens, with «Режимы» beside the models and tariffs the bot sells. */
export const adminNav: readonly AdminNavItem[] = [
  { to: paths.home, label: 'Сайт', icon: 'home', end: true },
  { to: paths.admin.root, label: 'Дашборд', icon: 'dashboard', end: true },
  { to: paths.admin.users, label: 'Пользователи', icon: 'users' },
  { to: paths.admin.articles, label: 'Статьи', icon: 'article' },
  { to: paths.admin.models, label: 'Модели', icon: 'model' },
  { to: paths.admin.tariffs, label: 'Тарифы', icon: 'tag' },
  { to: paths.admin.modes, label: 'Режимы', icon: 'chat' },
  { to: paths.admin.history, label: 'История', icon: 'history' },
  { to: paths.admin.payments, label: 'Платежи', icon: 'card' },
  { to: paths.admin.subscriptions, label: 'Подписки', icon: 'clock' },
  { to: paths.admin.promoCodes, label: 'Промокоды', icon: 'gift' },
  { to: paths.admin.support, label: 'Обращения', icon: 'send', count: 'supportUnread' },
  { to: paths.admin.broadcasts, label: 'Рассылки', icon: 'activity' },
  { to: paths.admin.sysvals, label: 'Настройки', icon: 'settings' },
  { to: paths.admin.audit, label: 'Журнал действий', icon: 'shield' },
];
