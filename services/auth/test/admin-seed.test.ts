import { afterAll, describe, expect, test } from '@jest/globals';
import { tokenVersionKey } from '@gpt/kit';
import { startTestService, uniqueName } from '@gpt/kit/testing';
import { loadAuthConfig } from '../src/config';
import { usersRepository } from '../src/data/users.repository';
import { authService } from '../src/service';

const stops: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const stop of stops) await stop();
});

describe('admin at start', () => {
  test('when ADMIN_EMAIL is new, then an admin is created with an argon2id hash and user.registered is published', async () => {
    const email = `${uniqueName('admin')}@example.com`;
    const auth = await startTestService(authService, loadAuthConfig, {
      ADMIN_EMAIL: email,
      ADMIN_PASSWORD: 'secret123',
    });
    stops.push(auth.stop);
    const event = await auth.deps.bus.waitFor('published', (e) => e.type === 'user.registered');
    expect(event.data).toMatchObject({ email, role: 'admin', source: 'web' });

    const admin = await usersRepository(auth.deps.db).findByEmail(email.toUpperCase());
    expect(admin).toMatchObject({ email, role: 'admin' });
    expect(admin?.passwordHash).toMatch(/^\$argon2id\$/);
    expect(await auth.deps.kv.get(tokenVersionKey(String(admin!.id)))).toBe('0');
  });

  test('when the e-mail belongs to a user, then that user is promoted and its old tokens revoked', async () => {
    const email = `${uniqueName('promote')}@example.com`;
    const first = await startTestService(authService, loadAuthConfig);
    await usersRepository(first.deps.db).create({ email, passwordHash: 'x', role: 'user', emailConfirmedAt: null });
    const databaseUrl = first.deps.config.SERVICE_DATABASE_URL;
    await first.close();
    stops.push(async () => {
      await again.close();
      await first.stop();
    });

    const again = await startTestService(authService, loadAuthConfig, { ADMIN_EMAIL: email }, { databaseUrl });
    const event = await again.deps.bus.waitFor('published', (e) => e.type === 'user.updated');
    expect(event.data).toMatchObject({ email, role: 'admin', version: 1 });
    const promoted = await usersRepository(again.deps.db).findByEmail(email);
    expect(promoted).toMatchObject({ role: 'admin', tokenVersion: 1, passwordHash: 'x' });
  });

  test('in production without ADMIN_EMAIL and ADMIN_PASSWORD, then the start is refused', () => {
    expect(() =>
      loadAuthConfig({ NODE_ENV: 'production', JWT_SECRET: 'x'.repeat(40), BOT_API_KEY: 'bot-key-123' }),
    ).toThrow(/ADMIN_EMAIL and ADMIN_PASSWORD are required in production/);
  });
});
