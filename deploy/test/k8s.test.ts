import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseEnv, promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { parseAllDocuments } from 'yaml';
import { configProblems, LOADERS } from './support/configs';

/**
 * deploy/k8s as `kubectl kustomize` renders it: every object valid against the Kubernetes API's
 * schemas (kubernetes-models, offline), and the rules docs/scaling.md promises — one Deployment per
 * process of the one image, probes, resources, a locked-down container, a graceful stop, autoscaling,
 * disruption budgets, network policies — with a configuration every process loads in production.
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const run = promisify(execFile);

interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; annotations?: Record<string, string> };
  spec?: Record<string, unknown>;
  data?: Record<string, string>;
}
interface Container {
  name: string;
  image: string;
  command: string[];
  envFrom: { configMapRef?: { name: string }; secretRef?: { name: string } }[];
  env?: { name: string }[];
  resources: { requests: Record<string, string>; limits: Record<string, string> };
  securityContext: Record<string, unknown>;
  startupProbe: { httpGet: { path: string } };
  livenessProbe: { httpGet: { path: string } };
  readinessProbe: { httpGet: { path: string } };
  lifecycle: { preStop: { exec: { command: string[] } } };
}
interface PodSpec {
  containers: Container[];
  securityContext: Record<string, unknown>;
  terminationGracePeriodSeconds: number;
}

const PROCESSES = Object.keys(LOADERS);
const SERVICES = PROCESSES.filter((name) => name !== 'gateway');
/** What the owner fills in after `npm run env:init`, and the managed servers' URLs. */
const OWNER_FILLS = {
  YOOKASSA_SHOP_ID: '123456',
  YOOKASSA_SECRET_KEY: 'live_secret',
  LLM_API_KEY: 'sk-test',
  TELEGRAM_BOT_TOKEN: '123456:ABC',
  DATABASE_URL: 'postgres://app:secret@db.example.net:5432/postgres',
  AMQP_URL: 'amqp://app:secret@mq.example.net:5672',
  REDIS_URL: 'redis://:secret@redis.example.net:6379',
};
/** kit forces a process's shutdown after this long (services/kit/src/lifecycle.ts). */
const FORCED_EXIT_SEC = 15;

async function render(overlay: string): Promise<K8sObject[]> {
  const { stdout } = await run('kubectl', ['kustomize', path.join(root, 'deploy/k8s/overlays', overlay)], {
    maxBuffer: 16 * 1024 * 1024,
  });
  return parseAllDocuments(stdout).map((doc) => doc.toJS() as K8sObject);
}

/** The kubernetes-models class of the object's kind, whose validate() checks it against the API schema. */
async function validate(object: K8sObject): Promise<void> {
  const group = object.apiVersion.includes('/') ? object.apiVersion : `v1`;
  const models = (await import(`kubernetes-models/${group}`)) as Record<
    string,
    new (data: unknown) => { validate(): void }
  >;
  const Model = models[object.kind];
  if (!Model) throw new Error(`${object.apiVersion} ${object.kind} is not a Kubernetes API kind`);
  new Model(object).validate();
}

const ofKind = <T = K8sObject>(objects: K8sObject[], kind: string) =>
  objects.filter((object) => object.kind === kind) as unknown as T[];
const podOf = (deployment: K8sObject) => (deployment.spec as { template: { spec: PodSpec } }).template.spec;
const nameOf = (object: K8sObject) => object.metadata.name;

interface Selector {
  matchLabels?: Record<string, string>;
  matchExpressions?: { key: string; operator: string; values: string[] }[];
}
interface NetworkPolicySpec {
  podSelector: Selector;
  ingress?: { from?: { podSelector?: Selector }[] }[];
  egress?: { ports?: { port: number }[] }[];
}

/** Whether the selector picks the pods of process `name` (labelled app.kubernetes.io/name). */
function selects(selector: Selector, name: string): boolean {
  const label = 'app.kubernetes.io/name';
  const byLabels = Object.entries(selector.matchLabels ?? {}).every(([key, value]) => key === label && value === name);
  const byExpressions = (selector.matchExpressions ?? []).every(
    (expression) => expression.key === label && expression.operator === 'In' && expression.values.includes(name),
  );
  return byLabels && byExpressions;
}

let workDir: string;
let secret: { stringData: Record<string, string> };
const rendered: Record<string, K8sObject[]> = {};

beforeAll(async () => {
  for (const overlay of ['dev', 'production', 'production-operators']) rendered[overlay] = await render(overlay);
  // The documented way to the Secret: `npm run env:init`, fill in .env, then the script.
  workDir = await mkdtemp(path.join(os.tmpdir(), 'k8s-'));
  await run(process.execPath, [path.join(root, 'deploy/init-env.mjs')], { cwd: workDir });
  const dotenv = path.join(workDir, '.env');
  const filled = Object.entries(OWNER_FILLS).map(([key, value]) => `${key}=${value}`);
  await run('sh', ['-c', `printf '%s\\n' "$@" >> ${dotenv}`, 'sh', ...filled]);
  const { stdout } = await run(process.execPath, [path.join(root, 'deploy/k8s/secret-from-env.mjs'), dotenv]);
  secret = JSON.parse(stdout) as typeof secret;
  expect(parseEnv(await readFile(dotenv, 'utf8')).JWT_SECRET).toBe(secret.stringData.JWT_SECRET);
}, 60_000);
afterAll(() => rm(workDir, { recursive: true, force: true }));

describe.each(['dev', 'production'])('kubectl kustomize deploy/k8s/overlays/%s', (overlay) => {
  const objects = () => rendered[overlay]!;

  test('every object is valid against the Kubernetes API schemas, in one namespace', async () => {
    for (const object of objects()) {
      await expect(validate(object).then(() => 'valid')).resolves.toBe('valid');
      if (object.kind !== 'Namespace')
        expect([nameOf(object), object.metadata.namespace]).toEqual([
          nameOf(object),
          `gpt${overlay === 'dev' ? '-dev' : ''}`,
        ]);
    }
  });

  test('one Deployment and Service per process, each running its bundle of the one image', () => {
    const deployments = ofKind(objects(), 'Deployment');
    expect(deployments.map(nameOf).sort()).toEqual([...PROCESSES].sort());
    expect(ofKind(objects(), 'Service').map(nameOf).sort()).toEqual([...PROCESSES].sort());
    const images = new Set(deployments.flatMap((d) => podOf(d).containers.map((c) => c.image)));
    expect(images.size).toBe(1);
    for (const deployment of deployments) {
      const [container] = podOf(deployment).containers as [Container];
      const main =
        nameOf(deployment) === 'gateway' ? 'gateway/dist/main.js' : `services/${nameOf(deployment)}/dist/main.js`;
      expect(container.command).toEqual(['node', '--enable-source-maps', main]);
    }
  });

  test('probes, resources, a locked-down container and a stop that fits the grace period', () => {
    for (const deployment of ofKind(objects(), 'Deployment')) {
      const pod = podOf(deployment);
      const [container] = pod.containers as [Container];
      const name = nameOf(deployment);
      expect([name, container.livenessProbe.httpGet.path, container.readinessProbe.httpGet.path]).toEqual([
        name,
        '/healthz',
        '/readyz',
      ]);
      expect([name, container.startupProbe.httpGet.path]).toEqual([name, '/healthz']);
      for (const bound of [container.resources.requests, container.resources.limits]) {
        expect([name, Object.keys(bound).sort()]).toEqual([name, ['cpu', 'memory']]);
      }
      expect([name, pod.securityContext]).toEqual([name, expect.objectContaining({ runAsNonRoot: true })]);
      expect([name, container.securityContext]).toEqual([
        name,
        expect.objectContaining({
          allowPrivilegeEscalation: false,
          readOnlyRootFilesystem: true,
          capabilities: { drop: ['ALL'] },
        }),
      ]);
      const [, wait] = container.lifecycle.preStop.exec.command as [string, string];
      expect(Number(wait) + FORCED_EXIT_SEC).toBeLessThan(pod.terminationGracePeriodSeconds);
    }
  });

  test('with the Secret made from `npm run env:init`’s .env, every process loads its configuration in production', () => {
    const config = ofKind(objects(), 'ConfigMap');
    expect(config).toHaveLength(1);
    for (const deployment of ofKind(objects(), 'Deployment')) {
      const [container] = podOf(deployment).containers as [Container];
      expect(container.envFrom).toEqual([
        { configMapRef: { name: nameOf(config[0]!) } },
        { secretRef: { name: 'gpt-secrets' } },
      ]);
      const env = { ...config[0]!.data, ...secret.stringData };
      expect([nameOf(deployment), configProblems(nameOf(deployment), env)]).toEqual([nameOf(deployment), []]);
    }
    // Every key of the ConfigMap and the Secret is a setting some process reads.
    const env = { ...config[0]!.data, ...secret.stringData };
    const read = new Set(PROCESSES.flatMap((name) => Object.keys(LOADERS[name]!(env) as object)));
    expect(Object.keys(env).filter((key) => !read.has(key))).toEqual([]);
  });

  test('autoscaling for the gateway, content and the bot; a disruption budget per process; network policies', () => {
    const autoscaled = ofKind<{ spec: { scaleTargetRef: { name: string } } } & K8sObject>(
      objects(),
      'HorizontalPodAutoscaler',
    );
    const expected = overlay === 'production' ? ['bot', 'content', 'gateway'] : ['content', 'gateway'];
    expect(autoscaled.map((hpa) => hpa.spec.scaleTargetRef.name).sort()).toEqual(expected);
    expect(ofKind(objects(), 'PodDisruptionBudget').map(nameOf).sort()).toEqual([...PROCESSES].sort());
    const policies = ofKind<{ spec: NetworkPolicySpec } & K8sObject>(objects(), 'NetworkPolicy');
    expect(policies.find((policy) => nameOf(policy) === 'default-deny')!.spec).toEqual({
      podSelector: {},
      policyTypes: ['Ingress', 'Egress'],
    });
    // Traffic from anywhere reaches the gateway only; each service only from named processes.
    const open = policies.filter((policy) => policy.spec.ingress?.some((rule) => !rule.from));
    expect(open.map(nameOf)).toEqual(['gateway']);
    for (const service of SERVICES) {
      const callers = policies
        .filter((policy) => selects(policy.spec.podSelector, service))
        .flatMap((policy) => policy.spec.ingress ?? [])
        .flatMap((rule) => rule.from ?? [])
        .flatMap((peer) => PROCESSES.filter((name) => peer.podSelector && selects(peer.podSelector, name)));
      expect([service, [...new Set(callers)].sort()]).toEqual([
        service,
        service === 'billing' ? ['auth', 'bot', 'gateway'] : ['bot', 'gateway'],
      ]);
    }
    // Only billing and the bot go out over HTTPS (YooKassa; Telegram and the model API).
    const https = PROCESSES.filter((name) =>
      policies.some(
        (policy) =>
          selects(policy.spec.podSelector, name) &&
          policy.spec.egress?.some((rule) => rule.ports?.some((port) => port.port === 443)),
      ),
    );
    expect(https.sort()).toEqual(['billing', 'bot']);
  });

  test('the gateway alone is behind the Ingress', () => {
    const [ingress] = ofKind<
      { spec: { rules: { http: { paths: { backend: { service: { name: string } } }[] } }[] } } & K8sObject
    >(objects(), 'Ingress');
    const backends = ingress!.spec.rules.flatMap((rule) => rule.http.paths.map((p) => p.backend.service.name));
    expect(backends).toEqual(['gateway']);
    if (overlay === 'production')
      expect(ingress!.metadata.annotations).toHaveProperty(['cert-manager.io/cluster-issuer']);
  });
});

describe('production', () => {
  test('the bot takes Telegram’s updates by webhook with two replicas or more', () => {
    const objects = rendered.production!;
    const [config] = ofKind(objects, 'ConfigMap');
    expect(config!.data!.TELEGRAM_WEBHOOK_URL).toMatch(/^https:\/\/.+\/api\/telegram\/webhook$/);
    const hpa = ofKind<{ spec: { minReplicas: number; scaleTargetRef: { name: string } } } & K8sObject>(
      objects,
      'HorizontalPodAutoscaler',
    ).find((one) => one.spec.scaleTargetRef.name === 'bot');
    expect(hpa!.spec.minReplicas).toBeGreaterThanOrEqual(2);
  });

  test('with the operators component, PostgreSQL and RabbitMQ come from their clusters', () => {
    const objects = rendered['production-operators']!;
    expect(objects.map((o) => `${o.apiVersion} ${o.kind}`)).toEqual(
      expect.arrayContaining(['postgresql.cnpg.io/v1 Cluster', 'rabbitmq.com/v1beta1 RabbitmqCluster']),
    );
    for (const deployment of ofKind(objects, 'Deployment')) {
      const names = (podOf(deployment).containers[0]!.env ?? []).map((variable) => variable.name);
      expect(names).toEqual(expect.arrayContaining(['DATABASE_URL', 'AMQP_URL']));
    }
  });
});
