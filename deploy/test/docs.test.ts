import { readdirSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { authService } from '@gpt/auth';
import { billingService } from '@gpt/billing';
import { createBotService } from '@gpt/bot';
import { chatHistoryService } from '@gpt/chat-history';
import { contentService } from '@gpt/content';
import { eventProducers, eventSubscriptions, type ServiceName } from '@gpt/contracts';
import { createLogger, openDatabase, type Migration } from '@gpt/kit';
import { createTestDatabase, dropTestDatabase } from '@gpt/kit/testing';
import { metricsService } from '@gpt/metrics';
import { sql } from 'kysely';

/**
 * The map a newcomer reads first cannot drift from the code: docs/architecture.md names every table each
 * service's migrations create and every event of the contracts with its producer and consumers, and
 * nothing that no longer exists; the README's diagram shows every process.
 */
const root = new URL('../../', import.meta.url);
const architecture = readFileSync(new URL('docs/architecture.md', root), 'utf8');
const readme = readFileSync(new URL('README.md', root), 'utf8');

const migrationsOf: Record<ServiceName, Record<string, Migration>> = {
  auth: authService.migrations,
  content: contentService.migrations,
  billing: billingService.migrations,
  'chat-history': chatHistoryService.migrations,
  metrics: metricsService.migrations,
  bot: createBotService().migrations,
};
const services = Object.keys(migrationsOf) as ServiceName[];

/** The cells of the markdown table whose header row starts with `firstHeader`, row by row. */
function tableRows(markdown: string, firstHeader: string): string[][] {
  const lines = markdown.split('\n');
  const start = lines.findIndex((line) => line.startsWith(`| ${firstHeader} |`));
  if (start < 0) throw new Error(`docs/architecture.md has no table starting with "| ${firstHeader} |"`);
  const rows: string[][] = [];
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith('|')) break;
    rows.push(
      line
        .split('|')
        .slice(1, -1)
        .map((cell) => cell.trim()),
    );
  }
  return rows;
}

const backticked = (cell: string) => [...cell.matchAll(/`([^`]+)`/g)].map((match) => match[1]!);
/** The services a cell names outside parentheses: «content (author names), billing (…)» → content, billing. */
const servicesNamed = (cell: string) => {
  let depth = 0;
  let plain = '';
  for (const char of cell) {
    if (char === '(') depth += 1;
    else if (char === ')') depth -= 1;
    else if (depth === 0) plain += char;
  }
  return services.filter((name) => new RegExp(`(^|[\\s,])${name}($|[\\s,])`).test(plain)).sort();
};

describe('docs/architecture.md: services and the tables they own', () => {
  const documented = new Map(tableRows(architecture, 'service').map((row) => [row[0]!, backticked(row[2] ?? '')]));
  const created = new Map<ServiceName, string[]>();
  const databases: string[] = [];

  beforeAll(async () => {
    const logger = createLogger({ name: 'docs-test', level: 'silent' });
    for (const service of services) {
      const url = await createTestDatabase(`docs_${service.replace('-', '_')}`);
      databases.push(url);
      const database = await openDatabase({ service, url, migrations: migrationsOf[service], logger, poolSize: 1 });
      const { rows } = await sql<{ name: string }>`
        select table_name as name from information_schema.tables
        where table_schema = 'public' and table_name not like 'kysely_%'`.execute(database.db);
      created.set(service, rows.map((row) => row.name).sort());
      await database.close();
    }
  }, 60_000);
  afterAll(async () => {
    for (const url of databases) await dropTestDatabase(url);
  });

  test.each(services)('the row of %s names exactly the tables its migrations create', (service) => {
    expect(documented.has(service)).toBe(true);
    expect([...new Set(documented.get(service))].sort()).toEqual(created.get(service));
  });

  test('every service of the table exists', () => {
    expect([...documented.keys()].sort()).toEqual([...services].sort());
  });
});

describe('docs/architecture.md: events with their producer and consumers', () => {
  const rows = tableRows(architecture, 'event').map((row) => ({
    types: backticked(row[0] ?? ''),
    producer: row[1] ?? '',
    consumers: servicesNamed(row[2] ?? ''),
  }));
  const types = Object.keys(eventProducers) as (keyof typeof eventProducers)[];
  const consumersOf = (type: string) =>
    services.filter((service) => (eventSubscriptions[service] as readonly string[]).includes(type)).sort();

  test('every event type of the contracts has a row, and every row an event type of the contracts', () => {
    expect(rows.flatMap((row) => row.types).sort()).toEqual([...types].sort());
  });

  test.each(types)('%s: the producer and the consumers are the ones in the contracts', (type) => {
    const row = rows.find((candidate) => candidate.types.includes(type))!;
    expect({ type, producer: row.producer, consumers: row.consumers }).toEqual({
      type,
      producer: eventProducers[type],
      consumers: consumersOf(type),
    });
  });
});

describe('README.md', () => {
  test('the diagram shows the gateway and every service', () => {
    const diagram = readme.split('```').find((block) => block.includes('gateway :8080')) ?? '';
    const shown = services.filter((service) => new RegExp(`(^|\\s)${service}(\\s|$)`, 'm').test(diagram));
    expect(shown).toEqual(services);
  });
});

describe("docs/architecture.md's layout of the bot", () => {
  test('names every feature file, so a newcomer finds each command where it lives', () => {
    const features = readdirSync(new URL('services/bot/src/features/', root)).filter((file) => file.endsWith('.ts'));
    const layout = architecture.slice(architecture.indexOf('Its layout, for a change to a command:'));
    expect(features.filter((file) => !layout.includes(`\`${file}\``))).toEqual([]);
  });
});
