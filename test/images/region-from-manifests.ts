import {
  type ConfigMap,
  type Container,
  type Deployment,
  type Job,
  type K8sObject,
  ofKind,
  type PodTemplate,
  renderOverlay,
  resolveEnv,
} from '../../deploy/checks/manifests';
import type { ContainerRun } from './container-engine';

// Turns a region's rendered manifests (`kubectl kustomize deploy/overlays/<region>`)
// into containers on this machine: each Deployment's and Job's image, args,
// environment, user, read-only root, capabilities, memory limit, probes and
// grace period, read from the manifests, not restated here. What changes is only
// what a machine without a cluster must change:
// - Secrets: the operator's values, supplied by the test (an unknown Secret fails);
// - the cluster's Services (nats-us, redis-us) become the local servers;
// - host network: listening addresses become 127.0.0.1 and every container port
//   a free port of this machine (the probes follow their port by name);
// - the images: the ones just built instead of the registry's.

export interface LocalRegion {
  secrets: Record<string, string>; // "<secret>/<key>" -> value
  services: Record<string, string>; // "nats-us:4222" -> "127.0.0.1:27206"
  images: Record<string, string>; // image name in the base manifests -> local image
  freePort: () => Promise<number>;
  /** Variables a test adds to an app's, on top of the manifests (each one said why where it is set). */
  extraEnv?: (app: string) => Record<string, string>;
}

export interface AppContainer extends ContainerRun {
  app: string;
  readinessPath: string;
  livenessPath: string;
  opsPort: number;
  httpPort?: number;
  /** How long the startup probe lets the app take to become live. */
  startupSeconds: number;
  graceSeconds: number;
  preStop?: string[];
}

export interface JobContainer extends ContainerRun {
  job: string;
}

export function renderedRegion(region: 'us' | 'eu'): K8sObject[] {
  return renderOverlay(region);
}

function securityOf(template: PodTemplate, container: Container) {
  const pod = template.spec.securityContext;
  const own = container.securityContext;
  const uid = own?.runAsUser ?? pod?.runAsUser;
  const gid = own?.runAsGroup ?? pod?.runAsGroup;
  return {
    user: uid === undefined ? undefined : `${uid}${gid === undefined ? '' : `:${gid}`}`,
    readOnlyRootFilesystem: own?.readOnlyRootFilesystem === true,
    dropCapabilities: own?.capabilities?.drop ?? [],
    noNewPrivileges: own?.allowPrivilegeEscalation === false,
  };
}

// Kubernetes quantities as the engines take them: 512Mi -> 512m.
function memoryLimit(container: Container): string | undefined {
  const limit = container.resources?.limits?.memory;
  if (!limit) return undefined;
  const match = /^(\d+)(Mi|Gi)$/.exec(limit);
  if (!match) throw new Error(`${container.name}: memory limit ${limit} is not in Mi or Gi`);
  return `${match[1]}${match[2] === 'Mi' ? 'm' : 'g'}`;
}

function imageOf(container: Container, local: LocalRegion): string {
  const name = Object.keys(local.images).find(
    (candidate) => container.image.split(':')[0].endsWith(`/${candidate}`) || container.image === candidate,
  );
  if (!name) throw new Error(`${container.name}: no local image for ${container.image}`);
  return local.images[name];
}

function environment(container: Container, objects: K8sObject[], local: LocalRegion): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, entry] of Object.entries(
    resolveEnv(container, ofKind<ConfigMap>(objects, 'ConfigMap')),
  )) {
    if (entry.secret) {
      const value = local.secrets[`${entry.secret.name}/${entry.secret.key}`];
      if (value === undefined)
        throw new Error(
          `${container.name}: ${name} reads Secret ${entry.secret.name}/${entry.secret.key}, unknown here`,
        );
      env[name] = value;
    } else env[name] = entry.value ?? '';
  }
  for (const [name, value] of Object.entries(env)) {
    // Listening on every interface of a shared machine: loopback is enough.
    if (/_HOST$/.test(name) && value === '0.0.0.0') env[name] = '127.0.0.1';
    for (const [service, address] of Object.entries(local.services))
      if (value.includes(`//${service}`)) env[name] = value.replace(`//${service}`, `//${address}`);
  }
  return env;
}

// The container ports move to free ports: the variables that carry them and
// the probes that name them follow.
async function movePorts(container: Container, env: Record<string, string>, local: LocalRegion) {
  const moved = new Map<string, number>();
  for (const port of container.ports ?? []) {
    const to = await local.freePort();
    if (port.name) moved.set(port.name, to);
    moved.set(String(port.containerPort), to);
    const carriers = Object.keys(env).filter(
      (name) => /_PORT$/.test(name) && env[name] === String(port.containerPort),
    );
    if (carriers.length !== 1)
      throw new Error(`${container.name}: port ${port.containerPort} is set by ${carriers.length} variables`);
    env[carriers[0]] = String(to);
  }
  return (port: number | string | undefined): number => {
    const to = moved.get(String(port));
    if (to === undefined)
      throw new Error(`${container.name}: a probe names port ${String(port)}, not declared`);
    return to;
  };
}

export async function appContainers(objects: K8sObject[], local: LocalRegion): Promise<AppContainer[]> {
  const apps: AppContainer[] = [];
  for (const deployment of ofKind<Deployment>(objects, 'Deployment')) {
    const template = deployment.spec.template;
    if (template.spec.containers.length !== 1)
      throw new Error(`${deployment.metadata.name}: one container per pod expected`);
    const [container] = template.spec.containers;
    const env = { ...environment(container, objects, local), ...local.extraEnv?.(deployment.metadata.name) };
    const portOf = await movePorts(container, env, local);
    const readiness = container.readinessProbe?.httpGet;
    const liveness = container.livenessProbe?.httpGet;
    const startup = container.startupProbe;
    if (!readiness || !liveness) throw new Error(`${deployment.metadata.name}: no HTTP probes`);
    const http = container.ports?.find((port) => port.name === 'http');
    apps.push({
      app: deployment.metadata.name,
      name: `formline-test-${deployment.metadata.name}`,
      image: imageOf(container, local),
      args: container.args ?? [],
      env,
      ...securityOf(template, container),
      memoryLimit: memoryLimit(container),
      readinessPath: readiness.path,
      livenessPath: liveness.path,
      opsPort: portOf(readiness.port),
      httpPort: http ? portOf(http.name) : undefined,
      startupSeconds: (startup?.periodSeconds ?? 10) * (startup?.failureThreshold ?? 3),
      graceSeconds: template.spec.terminationGracePeriodSeconds ?? 30,
      preStop: container.lifecycle?.preStop?.exec?.command,
    });
  }
  // An app's Service address (http://<app>, port 80: the gateway's MEDIA_URL)
  // is that app's moved http port here.
  for (const target of apps)
    if (target.httpPort !== undefined)
      for (const app of apps)
        for (const [name, value] of Object.entries(app.env))
          if (value === `http://${target.app}`) app.env[name] = `http://127.0.0.1:${target.httpPort}`;
  return apps;
}

// A second replica of an app: the same container on other ports.
export async function anotherReplica(
  app: AppContainer,
  local: LocalRegion,
  n: number,
): Promise<AppContainer> {
  const env = { ...app.env };
  const opsPort = await local.freePort();
  for (const name of Object.keys(env)) if (env[name] === String(app.opsPort)) env[name] = String(opsPort);
  if (app.httpPort !== undefined)
    throw new Error(`${app.app}: a second replica of an HTTP app needs its port moved too`);
  return { ...app, name: `${app.name}-${n}`, env, opsPort };
}

export function jobContainers(objects: K8sObject[], local: LocalRegion): JobContainer[] {
  return ofKind<Job>(objects, 'Job').map((job) => {
    const template = job.spec.template;
    const [container] = template.spec.containers;
    return {
      job: job.metadata.name,
      name: `formline-test-${job.metadata.name}`,
      image: imageOf(container, local),
      args: container.args ?? [],
      env: environment(container, objects, local),
      ...securityOf(template, container),
      memoryLimit: memoryLimit(container),
    };
  });
}
