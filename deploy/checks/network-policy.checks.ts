import type { z } from 'zod';
import type { AppName } from '@formline/stack';
import { type Deployment, type Job, type K8sObject, ofKind } from './manifests';

// What the NetworkPolicies of a rendered overlay must say: every pod of ours
// denied everything by default, then exactly the flows its app needs, read
// from the app's own config schema (NATS_URL: NATS; REDIS_URL: Redis; a
// *_DATABASE_URL: PostgreSQL; *_S3_ENDPOINT: an object store on 443;
// MEDIA_URL: the media app's http port) — no flow it does not use, no ingress
// from anywhere, the media app's http port from the gateway's pods only, the
// dispatcher and the media app out to the internet on 80/443 but never to a
// private range. A flow is known by its port; see deploy/base/network-policies.yaml.

export interface NetworkPolicy extends K8sObject {
  spec: {
    podSelector: LabelSelector;
    policyTypes?: ('Ingress' | 'Egress')[];
    ingress?: { from?: Peer[]; ports?: PolicyPort[] }[];
    egress?: { to?: Peer[]; ports?: PolicyPort[] }[];
  };
}

interface LabelSelector {
  matchLabels?: Record<string, string>;
  matchExpressions?: { key: string; operator: string; values?: string[] }[];
}
interface Peer {
  ipBlock?: { cidr: string; except?: string[] };
  namespaceSelector?: LabelSelector;
  podSelector?: LabelSelector;
}
interface PolicyPort {
  protocol?: string;
  port?: number | string;
}

type Report = (subject: string, message: string) => void;
type Flow = 'dns' | 'nats' | 'redis' | 'postgresql' | 'internet' | 'media';

const flowOfPort: Record<string, Flow> = {
  '53': 'dns',
  '4222': 'nats',
  '6379': 'redis',
  '6380': 'redis',
  '5432': 'postgresql',
  '80': 'internet',
  '443': 'internet',
  // The media app's container port named http (deploy/base/media.yaml).
  '8080': 'media',
};

// Ranges the dispatcher's way out must leave out (the cluster lives in them).
export const privateRanges = [
  '10.0.0.0/8',
  '100.64.0.0/10',
  '127.0.0.0/8',
  '169.254.0.0/16',
  '172.16.0.0/12',
  '192.168.0.0/16',
  'fc00::/7',
  'fe80::/10',
];

const id = (object: K8sObject) => `${object.kind}/${object.metadata.name}`;

export function networkPolicyProblems(
  objects: K8sObject[],
  configSchemas: Record<AppName, z.ZodObject>,
  report: Report,
): void {
  const policies = ofKind<NetworkPolicy>(objects, 'NetworkPolicy');
  const pods: { subject: string; labels: Record<string, string>; needs: Set<Flow>; ports: string[] }[] = [];
  for (const deployment of ofKind<Deployment>(objects, 'Deployment')) {
    const app = deployment.metadata.name as AppName;
    const shape = configSchemas[app]?.shape ?? {};
    const needs = new Set<Flow>(['dns']);
    if ('NATS_URL' in shape) needs.add('nats');
    if ('REDIS_URL' in shape) needs.add('redis');
    if (Object.keys(shape).some((name) => name.endsWith('DATABASE_URL'))) needs.add('postgresql');
    if ('MEDIA_URL' in shape) needs.add('media');
    // The dispatcher's webhook receivers, the media app's images by url; the
    // object stores (S3) of the apps that use one.
    if (
      app === 'dispatcher' ||
      app === 'media' ||
      Object.keys(shape).some((name) => name.endsWith('_S3_ENDPOINT'))
    )
      needs.add('internet');
    const ports = deployment.spec.template.spec.containers.flatMap((container) =>
      (container.ports ?? []).map((port) => port.name ?? String(port.containerPort)),
    );
    pods.push({
      subject: id(deployment),
      labels: deployment.spec.template.metadata?.labels ?? {},
      needs,
      ports,
    });
  }
  for (const job of ofKind<Job>(objects, 'Job'))
    pods.push({
      subject: id(job),
      labels: job.spec.template.metadata?.labels ?? {},
      needs: new Set<Flow>(['dns', 'postgresql']),
      ports: [],
    });

  for (const pod of pods) {
    const applying = policies.filter((policy) => selects(policy.spec.podSelector, pod.labels));
    // Explicit, so that removing one allowing policy never opens a pod up.
    const deniesAll = applying.some(
      (policy) =>
        policy.spec.policyTypes?.includes('Ingress') &&
        policy.spec.policyTypes.includes('Egress') &&
        !policy.spec.ingress?.length &&
        !policy.spec.egress?.length,
    );
    if (!deniesAll) report(pod.subject, 'no NetworkPolicy denies its ingress and egress by default');
    checkEgress(pod, applying, report);
    checkIngress(pod, applying, report);
  }
}

function checkEgress(
  pod: { subject: string; needs: Set<Flow> },
  policies: NetworkPolicy[],
  report: Report,
): void {
  const reached = new Set<Flow>();
  for (const policy of policies)
    for (const rule of policy.spec.egress ?? []) {
      if (!rule.ports?.length) {
        report(pod.subject, `${id(policy)} lets it reach every port`);
        continue;
      }
      for (const port of rule.ports) {
        const flow = flowOfPort[String(port.port)];
        if (!flow) {
          report(pod.subject, `${id(policy)} lets it reach port ${port.port}, which no flow needs`);
          continue;
        }
        reached.add(flow);
        if (flow === 'internet') checkInternet(pod.subject, policy, rule.to ?? [], report);
        if (flow === 'dns' && !rule.to?.length)
          report(pod.subject, `${id(policy)} lets it reach port 53 anywhere, not only the cluster DNS`);
      }
    }
  for (const flow of pod.needs)
    if (!reached.has(flow)) report(pod.subject, `no NetworkPolicy lets it reach ${flow}`);
  for (const flow of reached)
    if (!pod.needs.has(flow)) report(pod.subject, `may reach ${flow}, which it does not use`);
}

// The dispatcher's way out: address blocks only, each leaving out every private range.
function checkInternet(subject: string, policy: NetworkPolicy, peers: Peer[], report: Report): void {
  if (peers.length === 0) {
    report(subject, `${id(policy)} lets it reach 80/443 anywhere, the cluster included`);
    return;
  }
  for (const peer of peers) {
    if (!peer.ipBlock) {
      report(subject, `${id(policy)} lets it reach 80/443 in the cluster`);
      continue;
    }
    const family = peer.ipBlock.cidr.includes(':') ? ':' : '.';
    const missing = privateRanges.filter(
      (range) => range.includes(family) && !(peer.ipBlock?.except ?? []).includes(range),
    );
    if (missing.length > 0) report(subject, `${id(policy)} lets it reach 80/443 in ${missing.join(', ')}`);
  }
}

// Ingress: the gateway's http port from the ingress controller's namespace,
// the media app's from the gateway's pods only, the ops port from
// Prometheus's; nothing from anywhere.
function checkIngress(
  pod: { subject: string; ports: string[] },
  policies: NetworkPolicy[],
  report: Report,
): void {
  const withHttp = ['Deployment/gateway', 'Deployment/media'];
  const allowed = new Set(withHttp.includes(pod.subject) ? ['http', 'ops'] : ['ops']);
  for (const policy of policies)
    for (const rule of policy.spec.ingress ?? []) {
      if (!rule.from?.length || rule.from.some((peer) => !peer.namespaceSelector && !peer.podSelector))
        report(pod.subject, `${id(policy)} accepts ingress from anywhere`);
      const opensHttp = (rule.ports ?? []).some((port) => String(port.port) === 'http');
      const fromGatewayOnly = (rule.from ?? []).every(
        (peer) =>
          !peer.namespaceSelector && peer.podSelector?.matchLabels?.['app.kubernetes.io/name'] === 'gateway',
      );
      if (pod.subject === 'Deployment/media' && opensHttp && !fromGatewayOnly)
        report(pod.subject, `${id(policy)} opens its http port to others than the gateway`);
      if (!rule.ports?.length) report(pod.subject, `${id(policy)} opens every port`);
      for (const port of rule.ports ?? [])
        if (!allowed.has(String(port.port)) && pod.ports.length > 0)
          report(pod.subject, `${id(policy)} opens port ${port.port}`);
    }
}

function selects(selector: LabelSelector, labels: Record<string, string>): boolean {
  for (const [key, value] of Object.entries(selector.matchLabels ?? {}))
    if (labels[key] !== value) return false;
  for (const expression of selector.matchExpressions ?? []) {
    const value = labels[expression.key];
    const values = expression.values ?? [];
    const holds =
      expression.operator === 'In'
        ? value !== undefined && values.includes(value)
        : expression.operator === 'NotIn'
          ? value === undefined || !values.includes(value)
          : expression.operator === 'Exists'
            ? value !== undefined
            : value === undefined;
    if (!holds) return false;
  }
  return true;
}
