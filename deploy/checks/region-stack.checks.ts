import type { z } from 'zod';
import { appConfigSchemas } from '@formline/app-config';
import { ConfigError, parseConfig, regionBaseUrls } from '@formline/config';
import { type Region, regions } from '@formline/contracts';
import { type AppName, appNames } from '@formline/stack';
import {
  type ConfigMap,
  type Container,
  type Deployment,
  type HorizontalPodAutoscaler,
  type Ingress,
  type Job,
  type K8sObject,
  ofKind,
  type PodDisruptionBudget,
  type PodTemplate,
  resolveEnv,
  type ResolvedEnv,
  type Service,
} from './manifests';
import { networkPolicyProblems } from './network-policy.checks';

// What a region's rendered overlay must satisfy to be deployable: every app
// configured as its own config schema demands, probed on its health endpoints,
// bounded, unprivileged, stopping within its grace period; the region's
// migrations present once; and nothing pointing at another region's
// infrastructure. Returns every problem found, each naming its object.

// The Secret (key `url`) behind each database, in the region's namespace.
export const databases = {
  global: { variable: 'GLOBAL_DATABASE_URL', secret: 'formline-global-database' },
  responses: { variable: 'RESPONSES_DATABASE_URL', secret: 'formline-responses-database' },
  webhooks: { variable: 'WEBHOOKS_DATABASE_URL', secret: 'formline-webhooks-database' },
} as const;
type Database = keyof typeof databases;

// The region that runs the global database's migration Job (docs/decisions/operations-and-deploy.md).
export const globalMigrationRegion: Region = 'us';
const autoscaledApps: readonly AppName[] = ['gateway', 'dispatcher', 'media'];
// The apps behind a Service: the gateway (for the Ingress), media (for the gateway).
const httpApps: readonly AppName[] = ['gateway', 'media'];
// libs/ops gives each dependency check 2 s; the readiness probe must wait longer.
const healthCheckTimeoutSeconds = 2;
const regionLabel = 'formline.io/region';

export const namespaceOf = (region: Region) => `formline-${region}`;

export function regionStackProblems(objects: K8sObject[], region: Region): string[] {
  const problems: string[] = [];
  const report: Report = (subject, message) => problems.push(`${subject}: ${message}`);
  const configMaps = ofKind<ConfigMap>(objects, 'ConfigMap');
  const deployments = ofKind<Deployment>(objects, 'Deployment');

  for (const object of objects) {
    if (object.metadata.namespace !== namespaceOf(region))
      report(id(object), `namespace is ${object.metadata.namespace}, not ${namespaceOf(region)}`);
    if (object.metadata.labels?.[regionLabel] !== region)
      report(id(object), `lacks label ${regionLabel}=${region}`);
  }
  for (const secret of ofKind(objects, 'Secret'))
    if (secret.data !== undefined || secret.stringData !== undefined)
      report(id(secret), 'carries values: Secrets are created by the operator, never kept in the repository');

  checkNoOtherRegion(objects, region, report);

  const appImages = new Set<string>();
  const envs: Partial<Record<AppName, ResolvedEnv>> = {};
  for (const app of appNames) {
    const deployment = deployments.find((candidate) => candidate.metadata.name === app);
    if (!deployment) {
      report(`Deployment/${app}`, 'missing');
      continue;
    }
    const container = deployment.spec.template.spec.containers.find((candidate) => candidate.name === app);
    if (!container) {
      report(id(deployment), `no container named ${app}`);
      continue;
    }
    appImages.add(container.image);
    if (container.args?.join(' ') !== app)
      report(id(deployment), `args are [${container.args?.join(', ')}], not [${app}]`);
    const env = resolveEnv(container, configMaps);
    envs[app] = env;
    checkAppEnvironment(deployment, app, env, region, report);
    checkProbes(deployment, container, env, report);
    checkMetricsScraping(deployment, env, report);
    // The Services (and the Ingress) reach the gateway and the media app by their port named http.
    const httpPort = container.ports?.find((port) => port.name === 'http')?.containerPort;
    if (httpApps.includes(app) && Number(env.HTTP_PORT?.value) !== httpPort)
      report(id(deployment), `HTTP_PORT ${env.HTTP_PORT?.value} is not the container port named http`);
    checkPodBasics(deployment, deployment.spec.template, report);
    checkGracePeriod(deployment, app, container, env, report);
    checkScaling(deployment, app, objects, report);
  }
  for (const deployment of deployments)
    if (!(appNames as readonly string[]).includes(deployment.metadata.name))
      report(id(deployment), 'is not one of the apps');

  checkOneFileStore(envs, report);
  checkGatewayExposure(objects, region, configMaps, report);
  networkPolicyProblems(objects, appConfigSchemas, report);
  const migrateImage = checkMigrationJobs(objects, region, report);
  checkImages(appImages, migrateImage, report);
  return problems;
}

// `subject` is `Kind/name`, or `overlay` for what concerns no single object.
type Report = (subject: string, message: string) => void;
const id = (object: K8sObject) => `${object.kind}/${object.metadata.name}`;

// No value anywhere names another region; only what every region carries alike
// is exempt: the two public base addresses, and the one image store (images
// are form material both regions show, not responses data).
function checkNoOtherRegion(objects: K8sObject[], region: Region, report: Report): void {
  const config = ofKind<ConfigMap>(objects, 'ConfigMap').find((map) => map.data?.REGION !== undefined);
  if (!config) report('overlay', 'no ConfigMap sets REGION');
  else if (config.data?.REGION !== region)
    report(id(config), `REGION is ${config.data?.REGION}, not ${region}`);
  const others = regions.filter((other) => other !== region);
  walkStrings(objects, (object, where, text) => {
    if (object === config && sharedByRegions.includes(where.replace(/^data\./, ''))) return;
    for (const other of others)
      if (mentionsRegion(text, other)) report(id(object), `${where} names region ${other}: ${text}`);
  });
}

const sharedByRegions = [
  'BASE_URL',
  'EU_BASE_URL',
  'IMAGE_S3_ENDPOINT',
  'IMAGE_S3_REGION',
  'IMAGE_S3_BUCKET',
];

// The object stores an app's schema reads (`<P>_STORAGE`): in a pod, an S3
// bucket (the root filesystem is read-only and replicas share no disk), its
// keys from a Secret; the file store (responses data) this region's own bucket.
function checkObjectStores(
  deployment: Deployment,
  schema: z.ZodObject,
  env: ResolvedEnv,
  region: Region,
  report: Report,
): void {
  for (const prefix of ['IMAGE', 'FILE']) {
    if (!(`${prefix}_STORAGE` in schema.shape)) continue;
    if (env[`${prefix}_STORAGE`]?.value !== 's3') {
      report(id(deployment), `${prefix}_STORAGE must be s3 (a pod has no disk of its own to keep them on)`);
      continue;
    }
    for (const name of ['S3_ENDPOINT', 'S3_BUCKET'].map((suffix) => `${prefix}_${suffix}`))
      if (!env[name]?.value) report(id(deployment), `${name} must be set in the overlay`);
    for (const name of ['S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'].map((suffix) => `${prefix}_${suffix}`))
      if (!env[name]?.secret) report(id(deployment), `${name} must come from a Secret`);
    if (prefix !== 'FILE') continue;
    // EU files stay in EU storage: the endpoint and the bucket name the region.
    const endpoint = env.FILE_S3_ENDPOINT?.value ?? '';
    if (endpoint && !mentionsRegion(hostOf(endpoint) ?? '', region))
      report(id(deployment), `FILE_S3_ENDPOINT host ${hostOf(endpoint)} does not name region ${region}`);
    const bucket = env.FILE_S3_BUCKET?.value ?? '';
    if (bucket && !mentionsRegion(bucket, region))
      report(id(deployment), `FILE_S3_BUCKET ${bucket} does not name region ${region}`);
  }
}

// The file store has one owner: the media app reads and writes respondents'
// files and deletes them for the responses service. No other app is given
// its settings or its keys (an app that could open it would be a second
// owner, and its Secret one more place to leak from).
function checkOneFileStore(envs: Partial<Record<AppName, ResolvedEnv>>, report: Report): void {
  for (const app of appNames) {
    if (app === 'media') continue;
    const seen = Object.keys(envs[app] ?? {}).filter((name) => /^FILE_(STORAGE|S3_)/.test(name));
    if (seen.length > 0)
      report(`Deployment/${app}`, `is given ${seen.join(', ')}: only the media app opens the file store`);
  }
}

function checkAppEnvironment(
  deployment: Deployment,
  app: AppName,
  env: ResolvedEnv,
  region: Region,
  report: Report,
): void {
  // The app's own schema decides: what it requires, in the formats it accepts.
  const schema = appConfigSchemas[app];
  const values = Object.fromEntries(
    Object.entries(env).map(([name, { value, secret }]) => [
      name,
      secret ? `postgresql://from-secret/${secret.name}` : value,
    ]),
  );
  try {
    parseConfig(schema, values);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    // A value kept in a Secret is unknown here: only its presence can be checked
    // (database URLs excepted, whose Secret is checked below).
    const unknowable = Object.entries(env)
      .filter(([name, { secret }]) => secret && !name.endsWith('DATABASE_URL'))
      .map(([name]) => `${name} is invalid`);
    for (const problem of error.problems) {
      if (!unknowable.some((prefix) => problem.startsWith(prefix))) report(id(deployment), problem);
    }
  }
  if (env.REGION?.value !== region) report(id(deployment), `REGION is ${env.REGION?.value}, not ${region}`);
  checkObjectStores(deployment, schema, env, region, report);
  // Inside a pod the defaults (127.0.0.1) are unreachable for the kubelet and the Service.
  if (env.OPS_HOST?.value !== '0.0.0.0') report(id(deployment), 'OPS_HOST must be 0.0.0.0');
  if (httpApps.includes(app) && env.HTTP_HOST?.value !== '0.0.0.0')
    report(id(deployment), 'HTTP_HOST must be 0.0.0.0');
  // The gateway forwards the image routes to the region's media app, through its Service.
  if (app === 'gateway' && hostOf(env.MEDIA_URL?.value ?? '') !== 'media')
    report(id(deployment), `MEDIA_URL ${env.MEDIA_URL?.value} is not the media Service (http://media)`);
  // The region's NATS and Redis are visible in the overlay and name the region;
  // a password joins a URL as $(VARIABLE), from a Secret (docs/deploy.md).
  for (const name of ['NATS_URL', 'REDIS_URL']) {
    if (!(name in schema.shape)) continue;
    const { value, secret } = env[name] ?? {};
    if (secret || !value) {
      report(
        id(deployment),
        `${name} must be set in the overlay, not ${secret ? 'in a Secret' : 'left out'}`,
      );
      continue;
    }
    for (const url of value.split(',')) {
      const host = hostOf(url.trim().replace(/\$\(\w+\)/g, 'x'));
      if (!host) report(id(deployment), `${name} is not a URL: ${url}`);
      else if (!mentionsRegion(host, region))
        report(id(deployment), `${name} host ${host} does not name region ${region}`);
    }
  }
  const referenced = (name: string) => Object.values(env).some(({ value }) => value?.includes(`$(${name})`));
  for (const [name, { secret }] of Object.entries(env)) {
    const database = Object.values(databases).find((candidate) => candidate.variable === name);
    if (database && (!secret || secret.name !== database.secret || secret.key !== 'url'))
      report(
        id(deployment),
        // Never print the value: an inline URL carries a password.
        `${name} must come from Secret ${database.secret} (key url), not ${secret ? `Secret ${secret.name}` : 'an inline value'}`,
      );
    if (secret && !(name in schema.shape) && !referenced(name))
      report(id(deployment), `${name} comes from a Secret the app never reads`);
  }
}

function checkProbes(deployment: Deployment, container: Container, env: ResolvedEnv, report: Report): void {
  const opsPort = Number(env.OPS_PORT?.value);
  const portNumber = (port: number | string | undefined) =>
    typeof port === 'number'
      ? port
      : container.ports?.find((candidate) => candidate.name === port)?.containerPort;
  for (const [probe, path] of [
    ['livenessProbe', '/health/live'],
    ['readinessProbe', '/health/ready'],
  ] as const) {
    const httpGet = container[probe]?.httpGet;
    if (!httpGet) {
      report(id(deployment), `no ${probe}`);
      continue;
    }
    if (httpGet.path !== path) report(id(deployment), `${probe} probes ${httpGet.path}, not ${path}`);
    if (portNumber(httpGet.port) !== opsPort)
      report(id(deployment), `${probe} probes port ${httpGet.port}, not OPS_PORT ${env.OPS_PORT?.value}`);
  }
  if (container.readinessProbe && (container.readinessProbe.timeoutSeconds ?? 1) <= healthCheckTimeoutSeconds)
    report(
      id(deployment),
      `readinessProbe timeoutSeconds must exceed the ${healthCheckTimeoutSeconds} s health checks`,
    );
}

// Prometheus finds each pod's /metrics by the pod's annotations, on the ops
// port: the port no Service or Ingress exposes (checkGatewayExposure).
function checkMetricsScraping(deployment: Deployment, env: ResolvedEnv, report: Report): void {
  const annotations = deployment.spec.template.metadata?.annotations ?? {};
  if (annotations['prometheus.io/scrape'] !== 'true')
    report(id(deployment), "pods lack the annotation prometheus.io/scrape: 'true'");
  if (annotations['prometheus.io/path'] !== '/metrics')
    report(id(deployment), `prometheus.io/path is ${annotations['prometheus.io/path']}, not /metrics`);
  if (Number(annotations['prometheus.io/port']) !== Number(env.OPS_PORT?.value))
    report(
      id(deployment),
      `prometheus.io/port ${annotations['prometheus.io/port']} is not OPS_PORT ${env.OPS_PORT?.value}`,
    );
}

// Resources and an unprivileged, read-only container: for apps and Jobs alike.
function checkPodBasics(object: K8sObject, template: PodTemplate, report: Report): void {
  const pod = template.spec;
  for (const container of pod.containers) {
    const { requests, limits } = container.resources ?? {};
    for (const resource of ['cpu', 'memory'] as const) {
      if (requests?.[resource] === undefined)
        report(id(object), `${container.name} has no ${resource} request`);
      if (limits?.[resource] === undefined) report(id(object), `${container.name} has no ${resource} limit`);
    }
    if (requests?.memory && limits?.memory && bytes(requests.memory) > bytes(limits.memory))
      report(id(object), `${container.name} requests more memory than its limit`);
    if (requests?.cpu !== undefined && limits?.cpu !== undefined && cores(requests.cpu) > cores(limits.cpu))
      report(id(object), `${container.name} requests more cpu than its limit`);
    const security = container.securityContext ?? {};
    if (!(security.runAsNonRoot ?? pod.securityContext?.runAsNonRoot))
      report(id(object), `${container.name} may run as root: set runAsNonRoot: true`);
    if ((security.runAsUser ?? pod.securityContext?.runAsUser) === 0)
      report(id(object), `${container.name} runs as uid 0`);
    if (security.allowPrivilegeEscalation !== false)
      report(id(object), `${container.name} must set allowPrivilegeEscalation: false`);
    if (security.readOnlyRootFilesystem !== true)
      report(id(object), `${container.name} must set readOnlyRootFilesystem: true`);
    if (!security.capabilities?.drop?.includes('ALL'))
      report(id(object), `${container.name} must drop ALL capabilities`);
  }
}

// SIGTERM comes after preStop; the app then has SHUTDOWN_TIMEOUT_MS to finish,
// and the pod is killed at terminationGracePeriodSeconds: it must come last.
function checkGracePeriod(
  deployment: Deployment,
  app: AppName,
  container: Container,
  env: ResolvedEnv,
  report: Report,
): void {
  const grace = deployment.spec.template.spec.terminationGracePeriodSeconds;
  const shutdown = Number(env.SHUTDOWN_TIMEOUT_MS?.value);
  if (grace === undefined) report(id(deployment), 'terminationGracePeriodSeconds is not set');
  if (!Number.isFinite(shutdown))
    report(id(deployment), 'SHUTDOWN_TIMEOUT_MS is not set next to the grace period');
  const preStop = container.lifecycle?.preStop;
  const command = preStop?.exec?.command ?? [];
  const preStopSeconds = preStop?.sleep?.seconds ?? (command[0] === 'sleep' ? Number(command[1]) : 0);
  // Behind a Service, requests keep coming until every proxy has dropped the
  // pod: it must keep serving a few seconds before it stops.
  if (httpApps.includes(app) && !(preStopSeconds > 0))
    report(id(deployment), 'needs a preStop delay before SIGTERM');
  if (grace !== undefined && Number.isFinite(shutdown) && grace * 1000 <= preStopSeconds * 1000 + shutdown)
    report(
      id(deployment),
      `terminationGracePeriodSeconds ${grace} does not cover preStop ${preStopSeconds} s + SHUTDOWN_TIMEOUT_MS ${shutdown}`,
    );
}

function checkScaling(deployment: Deployment, app: AppName, objects: K8sObject[], report: Report): void {
  const hpa = ofKind<HorizontalPodAutoscaler>(objects, 'HorizontalPodAutoscaler').find(
    (candidate) =>
      candidate.spec.scaleTargetRef.kind === 'Deployment' && candidate.spec.scaleTargetRef.name === app,
  );
  if (autoscaledApps.includes(app)) {
    if (!hpa) report(id(deployment), 'has no HorizontalPodAutoscaler');
    else if ((hpa.spec.minReplicas ?? 1) < 2) report(id(hpa), 'minReplicas must be at least 2');
    // A `replicas` in the manifest would reset the autoscaler's count on every apply.
    if (deployment.spec.replicas !== undefined) report(id(deployment), 'sets replicas although autoscaled');
  } else if ((deployment.spec.replicas ?? 1) < 2) report(id(deployment), 'needs at least 2 replicas');
  const labels = deployment.spec.template.metadata?.labels ?? {};
  const budget = ofKind<PodDisruptionBudget>(objects, 'PodDisruptionBudget').find((candidate) => {
    const selector = Object.entries(candidate.spec.selector.matchLabels ?? {});
    return selector.length > 0 && selector.every(([key, value]) => labels[key] === value);
  });
  if (!budget) report(id(deployment), 'has no PodDisruptionBudget');
}

// Only the gateway's HTTP port is reachable from outside the cluster, on the
// region's own public host; the media app's only inside it (a ClusterIP
// Service, no Ingress); health endpoints never are.
function checkGatewayExposure(
  objects: K8sObject[],
  region: Region,
  configMaps: ConfigMap[],
  report: Report,
): void {
  const services = ofKind<Service>(objects, 'Service');
  // The ops port (health and metrics) by name or number, in every app.
  const opsPorts = new Set<number | string>(['ops']);
  for (const deployment of ofKind<Deployment>(objects, 'Deployment'))
    for (const container of deployment.spec.template.spec.containers) {
      const port = resolveEnv(container, configMaps).OPS_PORT?.value;
      if (port) opsPorts.add(Number(port));
    }
  for (const service of services) {
    for (const port of service.spec.ports)
      if (opsPorts.has(port.targetPort ?? port.port))
        report(id(service), 'exposes the ops port (health and metrics)');
    if (!(httpApps as readonly string[]).includes(service.metadata.name))
      report(id(service), 'only the gateway and the media app have a Service');
  }
  for (const app of httpApps) {
    const service = services.find((candidate) => candidate.metadata.name === app);
    if (!service) report(`Service/${app}`, 'missing');
    else if (service.spec.selector['app.kubernetes.io/name'] !== app)
      report(id(service), `does not select the ${app} pods`);
    else if (service.spec.ports.some((port) => port.targetPort !== 'http'))
      report(id(service), 'must target the container port named http');
  }
  const media = services.find((service) => service.metadata.name === 'media');
  if (media && (media.spec.type ?? 'ClusterIP') !== 'ClusterIP')
    report(id(media), `is of type ${media.spec.type}: the media app is reached inside the cluster only`);

  const ingresses = ofKind<Ingress>(objects, 'Ingress');
  if (ingresses.length !== 1) {
    report('overlay', `expected one Ingress, found ${ingresses.length}`);
    return;
  }
  const ingress = ingresses[0];
  const { BASE_URL = '', EU_BASE_URL = '' } = configMaps.find((map) => map.data?.REGION)?.data ?? {};
  const publicHost = hostOf(regionBaseUrls({ BASE_URL, EU_BASE_URL })[region]);
  for (const rule of ingress.spec.rules) {
    if (rule.host !== publicHost)
      report(id(ingress), `host ${rule.host} is not ${publicHost}, this region's address`);
    for (const { backend } of rule.http?.paths ?? [])
      if (backend.service?.name !== 'gateway' || backend.service.port.name !== 'http')
        report(id(ingress), 'routes to something else than the gateway http port');
  }
  if (!ingress.spec.tls?.some((tls) => tls.hosts?.includes(publicHost ?? '')))
    report(id(ingress), `no TLS for ${publicHost}`);
}

// One Job per database the region migrates; the global database only in the
// region that owns its migration. Returns the migration image.
function checkMigrationJobs(objects: K8sObject[], region: Region, report: Report): string | undefined {
  const jobs = ofKind<Job>(objects, 'Job');
  const expected: Database[] =
    region === globalMigrationRegion ? ['global', 'responses', 'webhooks'] : ['responses', 'webhooks'];
  let image: string | undefined;
  for (const database of expected) {
    const job = jobs.find((candidate) => candidate.metadata.name === `migrate-${database}`);
    if (!job) {
      report(`Job/migrate-${database}`, 'missing');
      continue;
    }
    const pod = job.spec.template.spec;
    const [container] = pod.containers;
    image = container.image;
    if (container.args?.join(' ') !== `migrate ${database}`)
      report(id(job), `args are [${container.args?.join(', ')}], not [migrate, ${database}]`);
    const url = resolveEnv(container, []).DATABASE_URL;
    if (url?.secret?.name !== databases[database].secret || url.secret.key !== 'url')
      report(id(job), `DATABASE_URL must come from Secret ${databases[database].secret} (key url)`);
    if (pod.restartPolicy !== 'Never') report(id(job), 'restartPolicy must be Never (retries are new pods)');
    if (job.metadata.labels?.['app.kubernetes.io/component'] !== 'migration')
      report(id(job), 'lacks label app.kubernetes.io/component=migration (docs/deploy.md applies it first)');
    checkPodBasics(job, job.spec.template, report);
  }
  for (const job of jobs)
    if (!expected.some((database) => job.metadata.name === `migrate-${database}`))
      report(id(job), `is not a migration region ${region} runs`);
  return image;
}

// One release: every app on the same image, the migrations on the same tag.
function checkImages(appImages: Set<string>, migrateImage: string | undefined, report: Report): void {
  if (appImages.size !== 1) report('overlay', `apps run different images: ${[...appImages].join(', ')}`);
  const [appImage] = appImages;
  const tag = (image: string | undefined) => /:([^/:]+)$/.exec(image ?? '')?.[1];
  if (!tag(appImage) || tag(appImage) === 'latest')
    report('overlay', `app image ${appImage} needs a version tag`);
  if (migrateImage !== undefined && tag(migrateImage) !== tag(appImage))
    report('overlay', `migration image ${migrateImage} is not the same release as ${appImage}`);
}

function walkStrings(
  objects: K8sObject[],
  visit: (object: K8sObject, where: string, text: string) => void,
): void {
  const walk = (object: K8sObject, value: unknown, where: string) => {
    if (typeof value === 'string') visit(object, where, value);
    else if (Array.isArray(value)) value.forEach((item, index) => walk(object, item, `${where}[${index}]`));
    else if (value && typeof value === 'object')
      for (const [key, item] of Object.entries(value)) walk(object, item, where ? `${where}.${key}` : key);
  };
  for (const object of objects) walk(object, object, '');
}

// A region named as a word of a host or value: `nats-eu`, `db.eu.internal`.
export function mentionsRegion(text: string, region: Region): boolean {
  return new RegExp(`(^|[^a-z0-9])${region}([^a-z0-9]|$)`, 'i').test(text);
}

function hostOf(url: string): string | undefined {
  try {
    return new URL(url).hostname || undefined;
  } catch {
    return undefined;
  }
}

function cores(quantity: string | number): number {
  const text = String(quantity);
  return text.endsWith('m') ? Number(text.slice(0, -1)) / 1000 : Number(text);
}

function bytes(quantity: string): number {
  const units: Record<string, number> = { Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30, k: 1e3, M: 1e6, G: 1e9 };
  const [, number, unit] = /^([\d.]+)([A-Za-z]*)$/.exec(quantity) ?? [];
  return Number(number) * (unit ? (units[unit] ?? NaN) : 1);
}
