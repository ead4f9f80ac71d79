import type { AdminHistoryResponse, HistoryMessage, UserRegisteredData } from '@gpt/contracts';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { sql } from 'kysely';
import { type Harness, nextNumber, startHarness } from './support/chat-history';

let h: Harness;
let alice: UserRegisteredData;
let bob: UserRegisteredData;
/** Known by its Telegram username only. */
let carol: UserRegisteredData;
let cheap: string;
let dear: string;
/** Every message of this file, oldest first. */
const recorded: HistoryMessage[] = [];
const marker = `m${nextNumber()}`;

const list = (query: string) => h.get<AdminHistoryResponse>(`/api/admin/history?${query}`);
const ids = (messages: { id: number }[]) => messages.map((m) => m.id);
/** The default order: newest first. */
const newestFirst = (messages: HistoryMessage[]) => [...messages].reverse();

beforeAll(async () => {
  h = await startHarness();
  alice = await h.registerUser({ username: `Alice_${marker}`, first_name: 'Алиса', last_name: 'Иванова' });
  bob = await h.registerUser({ username: `bob_${marker}`, first_name: 'Борис', last_name: null });
  carol = await h.registerUser({
    username: null,
    telegram_username: `carol_tg_${marker}`,
    first_name: null,
    last_name: null,
  });
  cheap = (await h.createModel({ model: `a-cheap-${marker}`, input_price_per_1m: '0.1', output_price_per_1m: '0.2' }))
    .model;
  dear = (await h.createModel({ model: `z-dear-${marker}`, input_price_per_1m: '30', output_price_per_1m: '60' }))
    .model;
  const plan: [UserRegisteredData, string, string, string | null, number, number, 'success' | 'error'][] = [
    [alice, cheap, `${marker} Как приготовить борщ?`, 'Возьмите свёклу', 100, 200, 'success'],
    [bob, dear, `${marker} Напиши стих про КОТА`, 'Жил-был кот', 50, 500, 'success'],
    [alice, dear, `${marker} Переведи текст`, null, 10, 0, 'error'],
    [carol, cheap, `${marker} Что такое 100% и _подчёркивание_?`, 'Это проценты', 30, 30, 'success'],
    [alice, cheap, `${marker} Спасибо`, 'Пожалуйста, ваш кот доволен', 5, 7, 'success'],
    [bob, cheap, `${marker} Ещё вопрос`, 'Ответ', 1, 1, 'success'],
  ];
  for (const [user, model, text, answer, input, output, status] of plan) {
    recorded.push(
      await h.recordMessage({
        telegram_id: user.telegram_id,
        model,
        user_message: text,
        bot_response: answer,
        input_tokens: input,
        output_tokens: output,
        status,
        error_message: status === 'error' ? 'Таймаут модели' : null,
      }),
    );
  }
});
afterAll(() => h.close());

const mine = (user: UserRegisteredData) => recorded.filter((m) => m.user_id === user.user_id);

describe('GET /api/admin/history', () => {
  test('by default, then newest first with the total and the spec fields', async () => {
    const res = await list(`message=${marker}`);
    expect(res.status).toBe(200);
    expect(ids(res.body.history)).toEqual(ids(newestFirst(recorded)));
    expect(res.body.total).toBe(recorded.length);
    const aliceFirst = res.body.history.find((m) => m.id === recorded[0]!.id)!;
    expect(aliceFirst).toMatchObject({
      user_id: alice.user_id,
      telegram_id: alice.telegram_id,
      username: `Alice_${marker}`,
      first_name: 'Алиса',
      last_name: 'Иванова',
      user_deleted: false,
      model: cheap,
      status: 'success',
      user_message: `${marker} Как приготовить борщ?`,
      message: `${marker} Как приготовить борщ?`,
      bot_response: 'Возьмите свёклу',
      image_path: null,
      input_tokens: 100,
      output_tokens: 200,
      input_cost: '0.000010000000',
      output_cost: '0.000040000000',
      total_cost: '0.000050000000',
      cost: 1,
      error_message: null,
    });
  });

  test('when pageSize is given, then it sets the page size; limit does too and wins over pageSize', async () => {
    const all = ids(newestFirst(recorded));
    expect(ids((await list(`message=${marker}&pageSize=2`)).body.history)).toEqual(all.slice(0, 2));
    expect(ids((await list(`message=${marker}&pageSize=2&page=2`)).body.history)).toEqual(all.slice(2, 4));
    expect(ids((await list(`message=${marker}&limit=3`)).body.history)).toEqual(all.slice(0, 3));
    expect(ids((await list(`message=${marker}&limit=4&pageSize=2`)).body.history)).toEqual(all.slice(0, 4));
    const paged = await list(`message=${marker}&limit=4&page=2`);
    expect(ids(paged.body.history)).toEqual(all.slice(4, 8));
    expect(paged.body.total).toBe(recorded.length);
  });

  test('when neither is given, then pages hold 10; above 100, then 400', async () => {
    for (let i = 0; i < 5; i += 1) await h.recordMessage({ telegram_id: bob.telegram_id, model: cheap });
    expect((await list(`userId=${bob.user_id}`)).body.history).toHaveLength(7);
    const res = await h.get<{ error: string }>('/api/admin/history?pageSize=101');
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('Размер страницы должен быть целым числом от 1 до 100');
  });

  test('when filtered by userId, then only that user’s messages', async () => {
    const res = await list(`userId=${alice.user_id}`);
    expect(ids(res.body.history)).toEqual(ids(newestFirst(mine(alice))));
    expect(res.body.total).toBe(3);
    expect((await list('userId=abc')).status).toBe(400);
  });

  test('when filtered by username, then a case-insensitive substring of the site or Telegram username matches', async () => {
    const byName = await list(`username=ALICE_${marker.toUpperCase()}`);
    expect(ids(byName.body.history)).toEqual(ids(newestFirst(mine(alice))));
    expect(byName.body.total).toBe(mine(alice).length);
    const both = await list(`username=_${marker}&userId=${bob.user_id}`);
    expect(both.body.total).toBe(mine(bob).length + 5);
    expect(ids((await list(`username=carol_TG`)).body.history)).toEqual(ids(newestFirst(mine(carol))));
    expect((await list(`username=nobody_${marker}`)).body).toEqual({ history: [], total: 0 });
  });

  test('when filtered by message text, then user_message and bot_response are searched, any case', async () => {
    // "КОТА" in bob's question; "кот" in two answers.
    const res = await list(`message=${encodeURIComponent('кот')}`);
    expect(ids(res.body.history)).toEqual([recorded[4]!.id, recorded[1]!.id]);
    expect(res.body.total).toBe(2);
    expect(ids((await list(`message=${encodeURIComponent('СВЁКЛУ')}`)).body.history)).toEqual([recorded[0]!.id]);
  });

  test('when the text holds % or _, then they match themselves, not any text', async () => {
    expect(ids((await list(`message=${encodeURIComponent('100%')}`)).body.history)).toEqual([recorded[3]!.id]);
    expect(ids((await list(`message=${encodeURIComponent('_подчёркивание_')}`)).body.history)).toEqual([
      recorded[3]!.id,
    ]);
    expect((await list(`message=${encodeURIComponent('%%%')}`)).body.total).toBe(0);
  });

  test('when filters are combined, then all apply', async () => {
    const res = await list(`userId=${alice.user_id}&message=${encodeURIComponent('кот')}&username=alice`);
    expect(ids(res.body.history)).toEqual([recorded[4]!.id]);
  });

  const sortCases: [string, (m: HistoryMessage) => string | number][] = [
    ['id', (m) => m.id],
    ['user_id', (m) => m.user_id],
    ['username', (m) => m.username ?? ''],
    ['model', (m) => m.model],
    ['status', (m) => m.status],
    ['input_tokens', (m) => m.input_tokens],
    ['output_tokens', (m) => m.output_tokens],
    ['total_cost', (m) => Number(m.total_cost)],
    ['cost', (m) => m.cost],
    ['created_at', (m) => m.created_at],
  ];
  test.each(sortCases)('when sorted by %s both ways, then the rows follow it (id breaks ties)', async (field, key) => {
    const compare = (a: HistoryMessage, b: HistoryMessage) => {
      const [x, y] = [key(a), key(b)];
      if (x < y) return -1;
      if (x > y) return 1;
      return a.id - b.id;
    };
    const asc = [...recorded].sort(compare);
    const res = await list(`message=${marker}&sortField=${field}&sortOrder=1`);
    expect(ids(res.body.history)).toEqual(ids(asc));
    const desc = await list(`message=${marker}&sortField=${field}&sortOrder=-1`);
    expect(ids(desc.body.history)).toEqual(ids(asc.reverse()));
  });

  test('when the sort field is unknown, then 400', async () => {
    const res = await h.get<{ error: string }>('/api/admin/history?sortField=bot_response');
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('Недопустимое поле сортировки');
  });

  test('without an admin token, then 401', async () => {
    expect((await h.get('/api/admin/history', {})).status).toBe(401);
  });
});

describe('GET /api/admin/history/:id', () => {
  test('then the full message', async () => {
    const failed = recorded[2]!;
    const res = await h.get<HistoryMessage>(`/api/admin/history/${failed.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(failed);
    expect(res.body).toMatchObject({ status: 'error', error_message: 'Таймаут модели', cost: 0 });
  });

  test('when it does not exist, then 404 in Russian', async () => {
    const res = await h.get('/api/admin/history/99999999');
    expect(res).toEqual({ status: 404, body: { code: 'message_not_found', error: 'Сообщение не найдено' } });
  });
});

describe('GET /api/admin/history/prev|next/:id', () => {
  const step = async (which: 'prev' | 'next', id: number, userId?: number) =>
    h.get<HistoryMessage & { code: string; error: string }>(
      `/api/admin/history/${which}/${id}${userId ? `?userId=${userId}` : ''}`,
    );

  test('when walking next from the newest, then every message in the default order, then null at the end', async () => {
    const order = (await list('limit=100')).body.history;
    for (let i = 0; i + 1 < order.length; i += 1) {
      const next = await step('next', order[i]!.id);
      expect(next.status).toBe(200);
      expect(next.body.id).toBe(order[i + 1]!.id);
    }
    // The end of the list is an answer (200, null), not an error: the dialog asks for it with every message.
    expect(await step('next', order.at(-1)!.id)).toEqual({ status: 200, body: null });
  });

  test('when asking prev of the newest, then null; prev of the second, then the newest', async () => {
    const order = (await list('limit=2')).body.history;
    expect(await step('prev', order[0]!.id)).toEqual({ status: 200, body: null });
    expect((await step('prev', order[1]!.id)).body.id).toBe(order[0]!.id);
  });

  test('when within a user, then neighbours skip other users’ messages and stop at that user’s ends', async () => {
    const [newest, middle, oldest] = newestFirst(mine(alice));
    expect((await step('next', newest!.id, alice.user_id)).body.id).toBe(middle!.id);
    expect((await step('next', middle!.id, alice.user_id)).body.id).toBe(oldest!.id);
    expect(await step('next', oldest!.id, alice.user_id)).toEqual({ status: 200, body: null });
    expect((await step('prev', oldest!.id, alice.user_id)).body.id).toBe(middle!.id);
    expect(await step('prev', newest!.id, alice.user_id)).toEqual({ status: 200, body: null });
    // Without userId the next of alice's oldest is someone else's older message, if any.
    expect((await step('next', middle!.id)).body.user_id).not.toBe(alice.user_id);
  });

  test('when the message does not exist, then 404 "Сообщение не найдено"', async () => {
    expect((await step('next', 99999999)).body).toEqual({ code: 'message_not_found', error: 'Сообщение не найдено' });
  });
});

describe('GET /api/admin/history/export', () => {
  /** A small RFC 4180 reader for the test's own checks. */
  function parseCsv(text: string, separator = ','): string[][] {
    const rows: string[][] = [];
    let row: string[] = [];
    let cell = '';
    let quoted = false;
    for (let i = 0; i < text.length; i += 1) {
      const c = text[i]!;
      if (quoted) {
        if (c === '"' && text[i + 1] === '"') {
          cell += '"';
          i += 1;
        } else if (c === '"') quoted = false;
        else cell += c;
      } else if (c === '"') quoted = true;
      else if (c === separator) {
        row.push(cell);
        cell = '';
      } else if (c === '\r' && text[i + 1] === '\n') {
        row.push(cell);
        rows.push(row);
        row = [];
        cell = '';
        i += 1;
      } else cell += c;
    }
    return rows;
  }

  async function exportCsv(query: string, separator = ',') {
    const res = await fetch(`${h.url}/api/admin/history/export?${query}`, { headers: h.admin });
    const bytes = Buffer.from(await res.arrayBuffer());
    return { res, bytes, rows: parseCsv(bytes.toString('utf8').replace(/^\uFEFF/, ''), separator) };
  }

  test('when filtered and sorted, then the CSV holds exactly the list’s rows in its order', async () => {
    const query = `message=${marker}&sortField=total_cost&sortOrder=1`;
    const { res, rows } = await exportCsv(query);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="history-\d{4}-\d{2}-\d{2}\.csv"$/);
    const [header, ...data] = rows;
    expect(header).toEqual([
      'id',
      'created_at',
      'user_id',
      'telegram_id',
      'user',
      'username',
      'first_name',
      'last_name',
      'user_deleted',
      'model',
      'status',
      'input_tokens',
      'output_tokens',
      'input_cost',
      'output_cost',
      'total_cost',
      'cost',
      'user_message',
      'bot_response',
      'error_message',
      'image_path',
    ]);
    const listed = (await list(`${query}&limit=100`)).body.history;
    expect(data.map((r) => Number(r[0]))).toEqual(ids(listed));
    const column = (name: string) => header!.indexOf(name);
    const first = data[0]!;
    const message = listed[0]!;
    expect(first[column('user_message')]).toBe(message.user_message);
    expect(first[column('total_cost')]).toBe(message.total_cost);
    expect(first[column('username')]).toBe(message.username ?? '');
  });

  test('when filtered by user, then only their messages; by nothing matching, then just the header', async () => {
    const { rows } = await exportCsv(`userId=${alice.user_id}`);
    expect(rows.slice(1).map((r) => Number(r[0]))).toEqual(ids(newestFirst(mine(alice))));
    expect((await exportCsv(`username=nobody_${marker}`)).rows).toHaveLength(1);
  });

  test('when there are more rows than one batch, then every row comes once, in order, ties broken by id', async () => {
    const user = await h.registerUser();
    // 2 500 rows (batches hold 1 000) with input_tokens repeating, so equal keys straddle batch edges.
    await sql`
      insert into messages (user_id, model, status, user_message, input_tokens, output_tokens,
        input_price_per_1m, output_price_per_1m, input_cost, output_cost, total_cost, cost)
      select ${user.user_id}, ${cheap}, 'success', 'bulk ' || i, i % 7, 0, 0, 0, 0, 0, 0, 0
      from generate_series(1, 2500) as i`.execute(h.service.deps.db);
    const expected = await h.service.deps.db
      .selectFrom('messages')
      .select('id')
      .where('user_id', '=', user.user_id)
      .orderBy('input_tokens', 'desc')
      .orderBy('id', 'desc')
      .execute();
    const { rows } = await exportCsv(`userId=${user.user_id}&sortField=input_tokens&sortOrder=-1`);
    expect(rows.slice(1).map((r) => r[0])).toEqual(expected.map((r) => r.id));
  });

  test('when a text starts like a formula, then the cell is defused; quotes and line breaks survive', async () => {
    const message = await h.recordMessage({
      telegram_id: alice.telegram_id,
      model: cheap,
      user_message: '=HYPERLINK("http://evil")',
      bot_response: 'строка 1\r\nстрока "2", всё',
    });
    const { rows } = await exportCsv(`userId=${alice.user_id}`);
    const row = rows.find((r) => Number(r[0]) === message.id)!;
    expect(row).toContain(`'=HYPERLINK("http://evil")`);
    expect(row).toContain('строка 1\r\nстрока "2", всё');
  });

  test('without an admin token, then 401', async () => {
    expect((await fetch(`${h.url}/api/admin/history/export`)).status).toBe(401);
  });

  test('format=excel: BOM, «;», Russian headers, decimal commas, Moscow time; formulas stay defused', async () => {
    const formula = await h.recordMessage({
      telegram_id: alice.telegram_id,
      model: cheap,
      user_message: '@SUM(1;2)',
      bot_response: 'один; два',
    });
    const { res, bytes, rows } = await exportCsv(`userId=${alice.user_id}&format=excel`, ';');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toMatch(
      /^attachment; filename="history-\d{4}-\d{2}-\d{2}-excel\.csv"$/,
    );
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const [header, ...data] = rows;
    expect(header!.slice(0, 3)).toEqual(['ID', 'Дата (МСК)', 'ID пользователя']);
    const column = (name: string) => header!.indexOf(name);
    const listed = (await list(`userId=${alice.user_id}&limit=100`)).body.history;
    expect(data.map((r) => Number(r[0]))).toEqual(ids(listed));
    for (const [row, message] of data.map((r, i) => [r, listed[i]!] as const)) {
      expect(row[column('Стоимость ($)')]).toBe(message.total_cost.replace('.', ','));
      // Moscow is UTC+3 all year.
      const moscow = new Date(Date.parse(message.created_at) + 3 * 3600_000).toISOString();
      const [date, time] = [moscow.slice(0, 10).split('-').reverse().join('.'), moscow.slice(11, 19)];
      expect(row[column('Дата (МСК)')]).toBe(`${date} ${time}`);
    }
    expect(data.some((r) => /^\d+,\d+$/.test(r[column('Стоимость ($)')]!))).toBe(true);
    const row = data.find((r) => Number(r[0]) === formula.id)!;
    expect(row[column('Сообщение')]).toBe("'@SUM(1;2)");
    expect(row[column('Ответ бота')]).toBe('один; два');
    expect(row[column('Пользователь удалён')]).toBe('нет');
  });

  test('the person is named as everywhere in the product (personName); the raw name columns stay', async () => {
    // A Telegram-only account: a site account's e-mail would name the person first.
    const named = await h.registerUser({
      email: null,
      username: null,
      telegram_username: null,
      first_name: 'Дарья',
      last_name: 'Смирнова',
    });
    const anonymous = await h.registerUser({
      email: null,
      username: null,
      telegram_username: null,
      first_name: null,
      last_name: null,
    });
    for (const user of [named, anonymous]) {
      await h.recordMessage({
        telegram_id: user.telegram_id,
        model: cheap,
        user_message: 'Привет',
        bot_response: 'Да',
      });
    }
    const userOf = async (userId: number) => {
      const { rows } = await exportCsv(`userId=${userId}&format=excel`, ';');
      const [header, first] = rows;
      return (name: string) => first![header!.indexOf(name)];
    };
    const dasha = await userOf(named.user_id);
    expect(dasha('Пользователь')).toBe('Дарья Смирнова');
    expect([dasha('Имя'), dasha('Фамилия'), dasha('Имя пользователя')]).toEqual(['Дарья', 'Смирнова', '']);
    expect((await userOf(anonymous.user_id))('Пользователь')).toBe(`Telegram ID ${anonymous.telegram_id}`);
    const linked = await h.registerUser({ username: null, telegram_username: null, first_name: 'Гость' });
    await h.recordMessage({
      telegram_id: linked.telegram_id,
      model: cheap,
      user_message: 'Привет',
      bot_response: 'Да',
    });
    expect((await userOf(linked.user_id))('Пользователь')).toBe(linked.email);
    // A username begins with «@», which a spreadsheet would run as a formula: the cell is defused.
    expect((await userOf(alice.user_id))('Пользователь')).toBe(`'@Alice_${marker}`);
  });

  test('an unknown format is a 400 in Russian', async () => {
    const res = await fetch(`${h.url}/api/admin/history/export?format=xlsx`, { headers: h.admin });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: 'Формат выгрузки: csv или excel' });
  });
});

describe('deep pages of the whole history', () => {
  beforeAll(async () => {
    const user = await h.registerUser();
    // 3 000 older messages over ~25 hours, two per minute with the same created_at (ties across hour edges).
    await sql`
      insert into messages (user_id, model, status, user_message, input_tokens, output_tokens,
        input_price_per_1m, output_price_per_1m, input_cost, output_cost, total_cost, cost, created_at)
      select ${user.user_id}, ${cheap}, 'success', 'deep ' || i, 0, 0, 0, 0, 0, 0, 0, 0,
        date_trunc('minute', now()) - interval '2 days' + (i / 2) * interval '1 minute'
      from generate_series(1, 3000) as i`.execute(h.service.deps.db);
  });

  const expectedPage = async (order: 'asc' | 'desc', offset: number, limit: number) => {
    const rows = await h.service.deps.db
      .selectFrom('messages')
      .select('id')
      .orderBy('created_at', order)
      .orderBy('id', order)
      .offset(offset)
      .limit(limit)
      .execute();
    return rows.map((row) => Number(row.id));
  };

  test('then the total is every message', async () => {
    const count = await h.service.deps.db
      .selectFrom('messages')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow();
    expect((await list('page=1')).body.total).toBe(Number(count.n));
  });

  test.each([
    ['desc', 1, 10],
    ['desc', 101, 10],
    ['desc', 150, 20],
    ['desc', 37, 50],
    ['asc', 101, 10],
    ['asc', 61, 50],
  ] as const)('when sorted by created_at %s, page %d of size %d matches a plain OFFSET', async (order, page, size) => {
    const res = await list(`sortField=created_at&sortOrder=${order}&page=${page}&limit=${size}`);
    expect(res.status).toBe(200);
    expect(ids(res.body.history)).toEqual(await expectedPage(order, (page - 1) * size, size));
  });

  test('when the page is past the end, then it is empty with the total', async () => {
    const res = await list('page=100000&limit=10');
    expect(res.body.history).toEqual([]);
    expect(res.body.total).toBeGreaterThan(3000);
  });

  test('when the last page is partly filled, then it holds the remaining rows', async () => {
    const { total } = (await list('page=1')).body;
    const lastPage = Math.ceil(total / 50);
    const res = await list(`page=${lastPage}&limit=50`);
    expect(ids(res.body.history)).toEqual(await expectedPage('desc', (lastPage - 1) * 50, 50));
    expect(res.body.history.length).toBe(total - (lastPage - 1) * 50);
  });
});
