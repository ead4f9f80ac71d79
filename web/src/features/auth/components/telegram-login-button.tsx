import { type TelegramWidgetLogin } from '@gpt/contracts';
import { useEffect, useRef } from 'react';

import { useTelegramWidgetSignIn } from '@/lib/session/session';

import { useTelegramWidget } from '../api/get-telegram-widget';
import { AuthFailure } from './auth-fields';

const WIDGET_SCRIPT = 'https://telegram.org/js/telegram-widget.js?22';
/** The global the widget calls with the signed-in user (its `data-onauth`). */
const CALLBACK = 'onTelegramWidgetAuth';

declare global {
  interface Window {
    [CALLBACK]?: (user: TelegramWidgetLogin) => void;
  }
}

/**
 * «Войти через Telegram»: Telegram's Login Widget (its script from telegram.org draws the button), shown only when
 * the site has a real bot (`GET /api/auth/telegram/widget`); what it hands back is checked by the server with the
 * bot's token, and signs in as the login form does.
 */
export function TelegramLoginButton({ onSignedIn }: { onSignedIn(): void }) {
  const widget = useTelegramWidget();
  const signIn = useTelegramWidgetSignIn();
  const holder = useRef<HTMLDivElement>(null);
  const botUsername = widget.data?.botUsername ?? null;
  const latest = useRef({ signIn, onSignedIn });
  useEffect(() => {
    latest.current = { signIn, onSignedIn };
  });

  useEffect(() => {
    const element = holder.current;
    if (!botUsername || !element) return undefined;
    window[CALLBACK] = (user) => latest.current.signIn.mutate(user, { onSuccess: () => latest.current.onSignedIn() });
    const script = document.createElement('script');
    script.async = true;
    script.src = WIDGET_SCRIPT;
    script.dataset.telegramLogin = botUsername;
    script.dataset.size = 'large';
    script.dataset.lang = 'ru';
    script.dataset.requestAccess = 'write';
    script.dataset.onauth = `${CALLBACK}(user)`;
    element.appendChild(script);
    return () => {
      element.replaceChildren();
      delete window[CALLBACK];
    };
  }, [botUsername]);

  if (!botUsername) return null;
  return (
    <div className="mt-4 text-center" data-testid="telegram-login">
      <div className="d-flex align-items-center gap-2 text-body-secondary small mb-3" aria-hidden>
        <hr className="flex-grow-1 my-0" />
        или
        <hr className="flex-grow-1 my-0" />
      </div>
      <p className="mb-2 fw-semibold">Войти через Telegram</p>
      <div ref={holder} className="d-flex justify-content-center" />
      <AuthFailure error={signIn.error} fallback="Не удалось войти через Telegram." />
    </div>
  );
}
