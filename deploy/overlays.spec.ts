import { readdirSync } from 'node:fs';
import path from 'node:path';
import { appConfigSchemas } from '@formline/app-config';
import { type Region, regions } from '@formline/contracts';
import {
  type ConfigMap,
  type Container,
  type Deployment,
  deployDir,
  type Job,
  type K8sObject,
  renderKustomization,
  type Service,
  renderOverlay,
} from './checks/manifests';
import { type NetworkPolicy } from './checks/network-policy.checks';
import { globalMigrationRegion, regionStackProblems } from './checks/region-stack.checks';

// Renders every region's overlay with `kubectl kustomize` and holds it to what
// a deployable, region-confined stack needs (deploy/checks/region-stack.checks.ts).
// The second half breaks a rendered overlay on purpose, one way at a time, and
// expects the checks to say so: a check that cannot fail proves nothing.

const rendered = {} as Record<Region, K8sObject[]>;
beforeAll(() => {
  for (const region of regions) rendered[region] = renderOverlay(region);
});

const config = (objects: K8sObject[]) =>
  objects.find((object) => object.kind === 'ConfigMap' && (object as ConfigMap).data?.REGION) as ConfigMap;
// The media app's own settings: the region's file store.
const mediaConfig = (objects: K8sObject[]) =>
  objects.find(
    (object) => object.kind === 'ConfigMap' && (object as ConfigMap).data?.FILE_STORAGE,
  ) as ConfigMap;

describe('the overlays in deploy/', () => {
  it('has one overlay per region', () => {
    expect(readdirSync(path.join(deployDir, 'overlays')).sort()).toEqual([...regions].sort());
  });

  it.each(regions)('renders a deployable stack confined to region %s', (region) => {
    expect(regionStackProblems(rendered[region], region)).toEqual([]);
  });

  it('gives both regions the same two public base addresses', () => {
    const addresses = regions.map((region) => {
      const { BASE_URL, EU_BASE_URL } = config(rendered[region]).data ?? {};
      return { BASE_URL, EU_BASE_URL };
    });
    expect(new Set(addresses.map((pair) => JSON.stringify(pair))).size).toBe(1);
    expect(addresses[0].BASE_URL).not.toBe(addresses[0].EU_BASE_URL);
  });

  it('gives every app that uses Redis the password from a Secret, the gateway included (deploy/examples)', () => {
    const objects = renderKustomization(path.join(deployDir, 'examples/eu-redis-password'));
    expect(regionStackProblems(objects, 'eu')).toEqual([]);
    const redisApps = Object.entries(appConfigSchemas)
      .filter(([, schema]) => 'REDIS_URL' in schema.shape)
      .map(([app]) => app);
    expect(redisApps.sort()).toEqual(['dispatcher', 'gateway', 'webhooks']);
    expect(config(objects).data?.REDIS_URL).toMatch(/^rediss:\/\//);
    for (const app of redisApps) {
      const deployment = objects.find(
        (object) => object.kind === 'Deployment' && object.metadata.name === app,
      );
      expect((deployment as Deployment).spec.template.spec.containers[0].env).toEqual(
        expect.arrayContaining([
          {
            name: 'REDIS_PASSWORD',
            valueFrom: { secretKeyRef: { name: 'formline-redis', key: 'password' } },
          },
        ]),
      );
    }
  });

  it.each(regions)('in region %s, has Prometheus scrape /metrics on the ops port only', (region) => {
    const deployments = rendered[region].filter((object) => object.kind === 'Deployment') as Deployment[];
    expect(deployments).toHaveLength(6);
    for (const deployment of deployments) {
      const { annotations } = deployment.spec.template.metadata ?? {};
      const ops = deployment.spec.template.spec.containers[0].ports?.find((port) => port.name === 'ops');
      expect(annotations).toMatchObject({ 'prometheus.io/scrape': 'true', 'prometheus.io/path': '/metrics' });
      expect(Number(annotations?.['prometheus.io/port'])).toBe(ops?.containerPort);
    }
    // Reachable from outside the pod only through the http ports of the gateway and the media app.
    const services = rendered[region].filter((object) => object.kind === 'Service') as Service[];
    expect(
      services.flatMap((service) =>
        service.spec.ports.map((port) => `${service.metadata.name}:${port.targetPort}`),
      ),
    ).toEqual(['gateway:http', 'media:http']);
  });

  it(`migrates the global database from exactly one region (${globalMigrationRegion})`, () => {
    const owners = regions.filter((region) =>
      rendered[region].some((object) => object.kind === 'Job' && object.metadata.name === 'migrate-global'),
    );
    expect(owners).toEqual([globalMigrationRegion]);
  });
});

describe('the overlay checks', () => {
  const find = <T extends K8sObject>(objects: K8sObject[], kind: string, name: string) => {
    const found = objects.find((object) => object.kind === kind && object.metadata.name === name);
    if (!found) throw new Error(`${kind}/${name} is not in the rendered overlay`);
    return found as T;
  };
  const template = (objects: K8sObject[], app: string) =>
    find<Deployment>(objects, 'Deployment', app).spec.template;
  const pod = (objects: K8sObject[], app: string) =>
    find<Deployment>(objects, 'Deployment', app).spec.template.spec;
  const container = (objects: K8sObject[], app: string): Container => pod(objects, app).containers[0];
  const policy = (objects: K8sObject[], name: string) => find<NetworkPolicy>(objects, 'NetworkPolicy', name);
  const remove = (objects: K8sObject[], kind: string, name: string) =>
    objects.splice(objects.indexOf(find(objects, kind, name)), 1);

  const breakages: [string, (eu: K8sObject[]) => void, string][] = [
    [
      'a Deployment without a readiness probe',
      (eu) => delete container(eu, 'gateway').readinessProbe,
      'Deployment/gateway: no readinessProbe',
    ],
    [
      'a liveness probe on the readiness path',
      (eu) => (container(eu, 'global').livenessProbe!.httpGet!.path = '/health/ready'),
      'Deployment/global: livenessProbe probes /health/ready',
    ],
    [
      'a probe on the public port',
      (eu) => (container(eu, 'gateway').readinessProbe!.httpGet!.port = 'http'),
      'Deployment/gateway: readinessProbe probes port http',
    ],
    [
      'a container without limits',
      (eu) => delete container(eu, 'responses').resources!.limits,
      'Deployment/responses: responses has no memory limit',
    ],
    [
      'a container without requests',
      (eu) => delete container(eu, 'dispatcher').resources!.requests,
      'Deployment/dispatcher: dispatcher has no cpu request',
    ],
    [
      'a pod that may run as root',
      (eu) => delete pod(eu, 'dispatcher').securityContext!.runAsNonRoot,
      'Deployment/dispatcher: dispatcher may run as root',
    ],
    [
      'a container that may escalate privileges',
      (eu) => (container(eu, 'webhooks').securityContext!.allowPrivilegeEscalation = true),
      'Deployment/webhooks: webhooks must set allowPrivilegeEscalation: false',
    ],
    [
      'a grace period shorter than preStop and shutdown',
      (eu) => (pod(eu, 'gateway').terminationGracePeriodSeconds = 29),
      'Deployment/gateway: terminationGracePeriodSeconds 29 does not cover',
    ],
    [
      'a gateway without its preStop delay',
      (eu) => delete container(eu, 'gateway').lifecycle,
      'Deployment/gateway: needs a preStop delay',
    ],
    [
      'the health endpoints on loopback',
      (eu) =>
        (container(eu, 'global').env!.find((variable) => variable.name === 'OPS_HOST')!.value = '127.0.0.1'),
      'Deployment/global: OPS_HOST must be 0.0.0.0',
    ],
    [
      'a gateway listening on another port than its Service targets',
      (eu) =>
        (container(eu, 'gateway').env!.find((variable) => variable.name === 'HTTP_PORT')!.value = '3000'),
      'Deployment/gateway: HTTP_PORT 3000 is not the container port named http',
    ],
    [
      'a variable an app requires, missing',
      (eu) => {
        const env = container(eu, 'responses').env!;
        env.splice(
          env.findIndex((variable) => variable.name === 'RESPONSES_DATABASE_URL'),
          1,
        );
      },
      'Deployment/responses: RESPONSES_DATABASE_URL is missing',
    ],
    [
      'a database URL written inline',
      (eu) => {
        const variable = container(eu, 'global').env!.find(
          (candidate) => candidate.name === 'GLOBAL_DATABASE_URL',
        )!;
        delete variable.valueFrom;
        variable.value = 'postgresql://forms:secret@postgres-eu/formline_global';
      },
      'Deployment/global: GLOBAL_DATABASE_URL must come from Secret formline-global-database',
    ],
    [
      "EU files in the US region's bucket",
      (eu) => (mediaConfig(eu).data!.FILE_S3_BUCKET = 'formline-files-us'),
      'names region us: formline-files-us',
    ],
    [
      'a file bucket that names no region',
      (eu) => (mediaConfig(eu).data!.FILE_S3_BUCKET = 'formline-files'),
      'Deployment/media: FILE_S3_BUCKET formline-files does not name region eu',
    ],
    [
      'a file store endpoint that names no region',
      (eu) => (mediaConfig(eu).data!.FILE_S3_ENDPOINT = 'https://s3.amazonaws.com'),
      'Deployment/media: FILE_S3_ENDPOINT host s3.amazonaws.com does not name region eu',
    ],
    [
      "files on the pod's disk",
      (eu) => (mediaConfig(eu).data!.FILE_STORAGE = 'local'),
      'Deployment/media: FILE_STORAGE must be s3',
    ],
    [
      'images without a bucket',
      (eu) => delete config(eu).data!.IMAGE_S3_BUCKET,
      'Deployment/media: IMAGE_S3_BUCKET must be set in the overlay',
    ],
    [
      'a storage key written inline',
      (eu) => {
        const variable = container(eu, 'media').env!.find(
          (candidate) => candidate.name === 'FILE_S3_SECRET_ACCESS_KEY',
        )!;
        delete variable.valueFrom;
        variable.value = 'wJalrXUtnFEMI';
      },
      'Deployment/media: FILE_S3_SECRET_ACCESS_KEY must come from a Secret',
    ],
    [
      "the responses service given the file store's keys",
      (eu) =>
        container(eu, 'responses').env!.push({
          name: 'FILE_S3_SECRET_ACCESS_KEY',
          valueFrom: { secretKeyRef: { name: 'formline-file-storage', key: 'secret-access-key' } },
        }),
      'Deployment/responses: is given FILE_S3_SECRET_ACCESS_KEY: only the media app opens the file store',
    ],
    [
      "the file store's settings in the configuration every app reads",
      (eu) => (config(eu).data!.FILE_STORAGE = 's3'),
      'Deployment/gateway: is given FILE_STORAGE: only the media app opens the file store',
    ],
    [
      'the gateway let out to the object stores, which it no longer opens',
      (eu) => policy(eu, 'to-object-storage').spec.podSelector.matchExpressions![0].values!.push('gateway'),
      'Deployment/gateway: may reach internet, which it does not use',
    ],
    [
      'a US NATS server in the EU overlay',
      (eu) => (config(eu).data!.NATS_URL = 'nats://nats-eu:4222,nats://nats-us:4222'),
      'names region us: nats://nats-eu:4222,nats://nats-us:4222',
    ],
    [
      'a Redis host that names no region',
      (eu) => (config(eu).data!.REDIS_URL = 'redis://redis:6379/0'),
      'REDIS_URL host redis does not name region eu',
    ],
    [
      'a Redis URL hidden in a Secret',
      (eu) =>
        container(eu, 'webhooks').env!.push({
          name: 'REDIS_URL',
          valueFrom: { secretKeyRef: { name: 'formline-redis', key: 'url' } },
        }),
      'Deployment/webhooks: REDIS_URL must be set in the overlay, not in a Secret',
    ],
    [
      'a Service exposing the metrics port',
      (eu) =>
        eu.push({
          ...structuredClone(find(eu, 'Service', 'gateway')),
          metadata: { ...find(eu, 'Service', 'gateway').metadata, name: 'metrics' },
          spec: {
            selector: { 'app.kubernetes.io/name': 'dispatcher' },
            ports: [{ port: 9090, targetPort: 9090 }],
          },
        }),
      'Service/metrics: exposes the ops port (health and metrics)',
    ],
    [
      'the gateway Service reaching the ops port by its number',
      (eu) => find<Service>(eu, 'Service', 'gateway').spec.ports.push({ port: 9090 }),
      'Service/gateway: exposes the ops port (health and metrics)',
    ],
    [
      'pods Prometheus does not scrape',
      (eu) => delete template(eu, 'global').metadata!.annotations!['prometheus.io/scrape'],
      "Deployment/global: pods lack the annotation prometheus.io/scrape: 'true'",
    ],
    [
      'metrics scraped on the public port',
      (eu) => (template(eu, 'gateway').metadata!.annotations!['prometheus.io/port'] = '8080'),
      'Deployment/gateway: prometheus.io/port 8080 is not OPS_PORT 9090',
    ],
    ['REGION=us in the EU overlay', (eu) => (config(eu).data!.REGION = 'us'), 'REGION is us, not eu'],
    [
      "the Ingress on the default region's host",
      (eu) =>
        (find<K8sObject & { spec: { rules: { host: string }[] } }>(
          eu,
          'Ingress',
          'gateway',
        ).spec.rules[0].host = 'api.example.com'),
      'Ingress/gateway: host api.example.com is not api.eu.example.com',
    ],
    [
      'a Secret with values in the repository',
      (eu) => eu.push({ ...find(eu, 'ConfigMap', config(eu).metadata.name), kind: 'Secret' }),
      'carries values',
    ],
    [
      'a missing HorizontalPodAutoscaler',
      (eu) => remove(eu, 'HorizontalPodAutoscaler', 'dispatcher'),
      'Deployment/dispatcher: has no HorizontalPodAutoscaler',
    ],
    [
      'a missing PodDisruptionBudget',
      (eu) => remove(eu, 'PodDisruptionBudget', 'global'),
      'Deployment/global: has no PodDisruptionBudget',
    ],
    [
      'a missing migration Job',
      (eu) => remove(eu, 'Job', 'migrate-webhooks'),
      'Job/migrate-webhooks: missing',
    ],
    [
      'no default-deny NetworkPolicy',
      (eu) => remove(eu, 'NetworkPolicy', 'formline-default-deny'),
      'Deployment/global: no NetworkPolicy denies its ingress and egress by default',
    ],
    [
      'an app that cannot reach its database',
      (eu) => remove(eu, 'NetworkPolicy', 'to-postgresql'),
      'Deployment/responses: no NetworkPolicy lets it reach postgresql',
    ],
    [
      'an app allowed to reach a server it does not use',
      (eu) => policy(eu, 'to-redis').spec.podSelector.matchExpressions![0].values!.push('global'),
      'Deployment/global: may reach redis, which it does not use',
    ],
    [
      'an egress rule open to every port',
      (eu) => delete policy(eu, 'to-nats').spec.egress![0].ports,
      'Deployment/gateway: NetworkPolicy/to-nats lets it reach every port',
    ],
    [
      'the dispatcher allowed into a private range',
      (eu) => {
        const except = policy(eu, 'to-internet').spec.egress![0].to![0].ipBlock!.except!;
        except.splice(except.indexOf('10.0.0.0/8'), 1);
      },
      'Deployment/dispatcher: NetworkPolicy/to-internet lets it reach 80/443 in 10.0.0.0/8',
    ],
    [
      'the dispatcher allowed to any address on 443',
      (eu) => delete policy(eu, 'to-internet').spec.egress![0].to,
      'Deployment/dispatcher: NetworkPolicy/to-internet lets it reach 80/443 anywhere',
    ],
    [
      'the gateway open to ingress from anywhere',
      (eu) => delete policy(eu, 'gateway-from-ingress').spec.ingress![0].from,
      'Deployment/gateway: NetworkPolicy/gateway-from-ingress accepts ingress from anywhere',
    ],
    [
      'another port of an app opened',
      (eu) => policy(eu, 'ops-from-prometheus').spec.ingress![0].ports!.push({ protocol: 'TCP', port: 8080 }),
      'Deployment/global: NetworkPolicy/ops-from-prometheus opens port 8080',
    ],
    [
      "the global database's migration in region eu",
      (eu) => {
        const job = structuredClone(find<Job>(eu, 'Job', 'migrate-responses'));
        job.metadata.name = 'migrate-global';
        eu.push(job);
      },
      'Job/migrate-global: is not a migration region eu runs',
    ],
  ];

  it.each(breakages)('catch %s', (_, breakOverlay, expected) => {
    const eu = structuredClone(rendered.eu);
    breakOverlay(eu);
    expect(regionStackProblems(eu, 'eu')).toContainEqual(expect.stringContaining(expected));
  });
});
