import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import type { AdminTariffsResponse, PublicTariffsResponse } from '@gpt/contracts';
import { signAccessToken } from '@gpt/kit';
import { seenWithin, startTestReplica, startTestService, type TestService } from '@gpt/kit/testing';
import { loadBillingConfig } from '../src/config';
import type { BillingDatabase } from '../src/data/schema';
import type { BillingDeps } from '../src/deps';
import { billingService } from '../src/service';

// Two replicas of billing on one database and one Redis (key prefix and change channels), as
// `docker compose up --scale billing=2` runs them. A kept answer lives 30 s at most, so a change
// seen on the other replica within a second was announced, not waited out.
type Billing = TestService<ReturnType<typeof loadBillingConfig>, BillingDatabase, BillingDeps>;
let billing: Billing;
let replica: Billing;
let admin: Record<string, string>;

beforeAll(async () => {
  billing = await startTestService(billingService, loadBillingConfig);
  replica = await startTestReplica(billingService, loadBillingConfig, billing);
  const token = signAccessToken({ sub: '1', role: 'admin', ver: 0 }, billing.deps.config.JWT_SECRET);
  admin = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
});
afterAll(async () => {
  await replica.stop();
  await billing.stop();
});

const tariffsAt = async (service: Billing) =>
  ((await (await fetch(`${service.url}/api/tariffs`)).json()) as PublicTariffsResponse).tariffs;

async function adminCall<T>(service: Billing, method: string, path: string, body?: unknown) {
  const res = await fetch(`${service.url}${path}`, { method, headers: admin, body: JSON.stringify(body) });
  return { status: res.status, body: (await res.json()) as T };
}

/** A tariff as the admin screen edits it: every field it has, so fields added to tariffs later come along. */
async function editable(name: string) {
  const { body } = await adminCall<AdminTariffsResponse>(billing, 'GET', '/api/admin/tariffs?limit=100');
  const { id, created_at: _created, updated_at: _updated, ...fields } = body.data.find((t) => t.name === name)!;
  return { id, fields };
}

describe('GET /api/tariffs is kept until a tariff changes, on every replica', () => {
  test('when an admin edits a tariff through one replica, then it shows there at once and on the other within 1 s', async () => {
    await tariffsAt(billing);
    await tariffsAt(replica);
    const { id, fields } = await editable('Premium');
    const description = `Для тех, кто пишет каждый день (${Date.now()})`;
    expect((await adminCall(billing, 'PUT', `/api/admin/tariffs/${id}`, { ...fields, description })).status).toBe(200);

    const premium = (tariffs: PublicTariffsResponse['tariffs']) => tariffs.find((t) => t.id === id)?.description;
    expect(premium(await tariffsAt(billing))).toBe(description);
    await seenWithin(
      1000,
      () => tariffsAt(replica),
      (tariffs) => premium(tariffs) === description,
    );
  });

  test('when a tariff is created on one replica and deleted on the other, then both lists follow within 1 s', async () => {
    await tariffsAt(billing);
    await tariffsAt(replica);
    const name = `Студент ${Date.now()}`;
    const created = await adminCall<{ tariff: { id: number } }>(replica, 'POST', '/api/admin/tariffs', {
      ...(await editable('Premium')).fields,
      name,
    });
    expect(created.status).toBe(201);
    const named = (tariffs: PublicTariffsResponse['tariffs']) => tariffs.some((t) => t.name === name);
    expect(named(await tariffsAt(replica))).toBe(true);
    await seenWithin(1000, () => tariffsAt(billing), named);

    expect((await adminCall(billing, 'DELETE', `/api/admin/tariffs/${created.body.tariff.id}`)).status).toBe(200);
    expect(named(await tariffsAt(billing))).toBe(false);
    await seenWithin(
      1000,
      () => tariffsAt(replica),
      (tariffs) => !named(tariffs),
    );
  });

  test('when a change fails (a name already taken), then the kept list is still right', async () => {
    const before = await tariffsAt(billing);
    const { id, fields } = await editable('Elite');
    expect((await adminCall(billing, 'PUT', `/api/admin/tariffs/${id}`, { ...fields, name: 'Base' })).status).toBe(409);
    expect(await tariffsAt(billing)).toEqual(before);
  });
});

describe('ETag and 304', () => {
  test('when the client holds the current list, then 304 without a body on either replica; after an edit, 200 with another ETag', async () => {
    const first = await fetch(`${billing.url}/api/tariffs`);
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^".+"$/);
    expect(first.headers.get('cache-control')).toBe('public, no-cache');
    await first.arrayBuffer();
    for (const service of [billing, replica]) {
      const again = await fetch(`${service.url}/api/tariffs`, { headers: { 'If-None-Match': etag } });
      expect(again.status).toBe(304);
      expect(await again.text()).toBe('');
    }

    const { id, fields } = await editable('Base');
    const edited = { ...fields, description: `Бесплатно навсегда (${Date.now()})` };
    expect((await adminCall(billing, 'PUT', `/api/admin/tariffs/${id}`, edited)).status).toBe(200);
    const after = await fetch(`${billing.url}/api/tariffs`, { headers: { 'If-None-Match': etag } });
    expect(after.status).toBe(200);
    expect(after.headers.get('etag')).not.toBe(etag);
    expect(((await after.json()) as PublicTariffsResponse).tariffs.find((t) => t.id === id)?.description).toBe(
      edited.description,
    );
  });
});
