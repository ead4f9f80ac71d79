import { useEffect, useRef } from 'react';
import Alert from 'react-bootstrap/Alert';
import Spinner from 'react-bootstrap/Spinner';
import { Link, useNavigate } from 'react-router-dom';

import { paths } from '@/config/paths';
import { errorMessage } from '@/lib/api-client';
import { useTelegramLinkSignIn } from '@/lib/session/session';

import { AuthCard } from './auth-card';

const FAILED = 'Не удалось войти по ссылке. Попросите новую в боте командой /web.';

/**
 * /telegram-sign-in/{token}: the bot's single-use link signs the Telegram user in on the site (the session as the
 * login form leaves it) and opens the chat; a used or expired link says so, with the advice to ask the bot again.
 */
export function TelegramSignIn({ token }: { token: string }) {
  const signIn = useTelegramLinkSignIn();
  const navigate = useNavigate();
  // The link works once: one request, also when React runs the effect twice.
  const sent = useRef<string | null>(null);

  useEffect(() => {
    if (sent.current === token) return;
    sent.current = token;
    signIn.mutate(token, { onSuccess: () => navigate(paths.chat, { replace: true }) });
  }, [token, signIn, navigate]);

  return (
    <AuthCard title="Вход через Telegram">
      {signIn.isError ? (
        <>
          <Alert variant="danger" role="alert">
            {errorMessage(signIn.error, FAILED)}
          </Alert>
          <p className="text-center mb-0">
            <Link to={paths.login}>Войти по e-mail и паролю</Link>
          </p>
        </>
      ) : (
        <div className="text-center py-3" role="status">
          <Spinner className="mb-3" aria-hidden />
          <p className="mb-0">Входим в ваш аккаунт…</p>
        </div>
      )}
    </AuthCard>
  );
}
