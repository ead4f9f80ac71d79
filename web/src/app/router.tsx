import { createBrowserRouter, type RouteObject } from 'react-router-dom';

import { SpinnerBlock } from '@/components/ui/spinner-block';

import { RequireAdmin, RequireAuth } from './guards';
import { PublicLayout } from './layouts/public-layout';
import { RootLayout } from './root-layout';
import { RouteError } from './route-error';
import { ArticlePage } from './routes/article';
import { ArticlesPage } from './routes/articles';
import { ConfirmEmailPage } from './routes/confirm-email';
import { ContactPage } from './routes/contact';
import { DashboardPage } from './routes/dashboard';
import { FaqPage } from './routes/faq';
import { ForgotPasswordPage } from './routes/forgot-password';
import { HomePage } from './routes/home';
import { LinkAccountPage } from './routes/link-account';
import { LinkErrorPage } from './routes/link-error';
import { LinkSuccessPage } from './routes/link-success';
import { LoginPage } from './routes/login';
import { NotFoundPage } from './routes/not-found';
import { OfferPage } from './routes/offer';
import { PaymentResultPage } from './routes/payment-result';
import { PaymentSandboxPage } from './routes/payment-sandbox';
import { PricingPage } from './routes/pricing';
import { PrivacyPage } from './routes/privacy';
import { RegisterPage } from './routes/register';
import { TelegramSandboxPage } from './routes/telegram-sandbox';
import { TelegramSignInPage } from './routes/telegram-sign-in';
import { ResetPasswordPage } from './routes/reset-password';

/**
 * Admin screens are separate chunks loaded on demand (route `lazy`), so the public bundle
 * carries no admin code. Each module exports `Component`.
 */
const adminRoutes: RouteObject[] = [
  { index: true, lazy: () => import('./routes/admin/dashboard') },
  { path: 'users', lazy: () => import('./routes/admin/users') },
  { path: 'articles', lazy: () => import('./routes/admin/articles') },
  { path: 'models', lazy: () => import('./routes/admin/models') },
  { path: 'tariffs', lazy: () => import('./routes/admin/tariffs') },
  { path: 'modes', lazy: () => import('./routes/admin/modes') },
  { path: 'history', lazy: () => import('./routes/admin/history') },
  { path: 'payments', lazy: () => import('./routes/admin/payments') },
  { path: 'subscriptions', lazy: () => import('./routes/admin/subscriptions') },
  { path: 'sysvals', lazy: () => import('./routes/admin/sysvals') },
  { path: 'audit', lazy: () => import('./routes/admin/audit') },
  { path: 'promo-codes', lazy: () => import('./routes/admin/promo-codes') },
  { path: 'broadcasts', lazy: () => import('./routes/admin/broadcasts') },
  { path: 'support', lazy: () => import('./routes/admin/support') },
];

/** The route table of docs/product.md, Screens. */
export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    errorElement: <RouteError />,
    hydrateFallbackElement: <SpinnerBlock />,
    children: [
      {
        element: <PublicLayout />,
        children: [
          { index: true, element: <HomePage /> },
          { path: 'login', element: <LoginPage /> },
          { path: 'register', element: <RegisterPage /> },
          { path: 'register/:token', element: <RegisterPage /> },
          { path: 'forgot-password', element: <ForgotPasswordPage /> },
          { path: 'reset-password/:token', element: <ResetPasswordPage /> },
          { path: 'pricing', element: <PricingPage /> },
          { path: 'faq', element: <FaqPage /> },
          { path: 'articles', element: <ArticlesPage /> },
          { path: 'articles/:slug', element: <ArticlePage /> },
          { path: 'offer', element: <OfferPage /> },
          { path: 'privacy', element: <PrivacyPage /> },
          { path: 'contact', element: <ContactPage /> },
          { path: 'link-success', element: <LinkSuccessPage /> },
          { path: 'link-error', element: <LinkErrorPage /> },
          { path: 'confirm-email', element: <ConfirmEmailPage /> },
          { path: 'link/:token', element: <LinkAccountPage /> },
          { path: 'payment/result', element: <PaymentResultPage /> },
          { path: 'payment/sandbox/:id', element: <PaymentSandboxPage /> },
          { path: 'telegram-sandbox', element: <TelegramSandboxPage /> },
          { path: 'telegram-sign-in/:token', element: <TelegramSignInPage /> },
          {
            element: <RequireAuth />,
            children: [
              { path: 'dashboard', element: <DashboardPage /> },
              { path: 'chat', lazy: () => import('./routes/chat') },
              { path: 'chat/:conversationId', lazy: () => import('./routes/chat') },
            ],
          },
          { path: '*', element: <NotFoundPage /> },
        ],
      },
      {
        path: 'admin',
        element: <RequireAdmin />,
        children: [{ lazy: () => import('./routes/admin/admin-layout'), children: adminRoutes }],
      },
    ],
  },
];

export function createAppRouter() {
  return createBrowserRouter(routes);
}
