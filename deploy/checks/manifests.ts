import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';
import type { Region } from '@formline/contracts';

// Renders a region's overlay exactly as `kubectl apply -k` would send it, and
// the few shapes of Kubernetes objects the deploy checks look into. The types
// are partial on purpose: only the fields the checks read.

export const deployDir = path.resolve(__dirname, '..');
export const overlayDir = (region: Region) => path.join(deployDir, 'overlays', region);

export interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string> };
  [field: string]: unknown;
}

export interface EnvVar {
  name: string;
  value?: string;
  valueFrom?: {
    secretKeyRef?: { name: string; key: string };
    configMapKeyRef?: { name: string; key: string };
  };
}

export interface Probe {
  httpGet?: { path: string; port: number | string };
  timeoutSeconds?: number;
  periodSeconds?: number;
  failureThreshold?: number;
}

export interface Container {
  name: string;
  image: string;
  args?: string[];
  ports?: { name?: string; containerPort: number }[];
  env?: EnvVar[];
  envFrom?: { configMapRef?: { name: string }; secretRef?: { name: string } }[];
  livenessProbe?: Probe;
  readinessProbe?: Probe;
  startupProbe?: Probe;
  lifecycle?: { preStop?: { exec?: { command: string[] }; sleep?: { seconds: number } } };
  resources?: {
    requests?: { cpu?: string | number; memory?: string };
    limits?: { cpu?: string | number; memory?: string };
  };
  securityContext?: SecurityContext;
}

export interface SecurityContext {
  runAsNonRoot?: boolean;
  runAsUser?: number;
  runAsGroup?: number;
  allowPrivilegeEscalation?: boolean;
  readOnlyRootFilesystem?: boolean;
  capabilities?: { drop?: string[] };
}

export interface PodTemplate {
  metadata?: { labels?: Record<string, string>; annotations?: Record<string, string> };
  spec: {
    containers: Container[];
    securityContext?: SecurityContext;
    terminationGracePeriodSeconds?: number;
    restartPolicy?: string;
  };
}

export interface Deployment extends K8sObject {
  spec: { replicas?: number; selector: { matchLabels: Record<string, string> }; template: PodTemplate };
}

export interface Job extends K8sObject {
  spec: { template: PodTemplate };
}

export interface HorizontalPodAutoscaler extends K8sObject {
  spec: { scaleTargetRef: { kind: string; name: string }; minReplicas?: number; maxReplicas: number };
}

export interface PodDisruptionBudget extends K8sObject {
  spec: { selector: { matchLabels: Record<string, string> } };
}

export interface Service extends K8sObject {
  spec: {
    type?: string;
    selector: Record<string, string>;
    ports: { port: number; targetPort?: number | string }[];
  };
}

export interface Ingress extends K8sObject {
  spec: {
    tls?: { hosts?: string[] }[];
    rules: {
      host?: string;
      http?: {
        paths: { backend: { service?: { name: string; port: { name?: string; number?: number } } } }[];
      };
    }[];
  };
}

export interface ConfigMap extends K8sObject {
  data?: Record<string, string>;
}

export function renderOverlay(region: Region): K8sObject[] {
  return renderKustomization(overlayDir(region));
}

export function renderKustomization(dir: string): K8sObject[] {
  return parseManifests(kubectl(['kustomize', dir]));
}

export function parseManifests(text: string): K8sObject[] {
  return parseAllDocuments(text)
    .map((document) => document.toJS() as K8sObject | null)
    .filter((object): object is K8sObject => object !== null);
}

function kubectl(args: string[]): string {
  try {
    return execFileSync('kubectl', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      throw new Error(
        'kubectl is not on PATH. The deploy tests render the overlays with `kubectl kustomize`: ' +
          "kubectl (client 1.32, kustomize built in) is installed on the project's machine image; " +
          "elsewhere install it from Kubernetes' own package repository (it is not in Debian's).",
        { cause: error },
      );
    }
    const stderr = (error as { stderr?: string }).stderr ?? '';
    throw new Error(`kubectl ${args.join(' ')} failed:\n${stderr}`, { cause: error });
  }
}

export const ofKind = <T extends K8sObject>(objects: K8sObject[], kind: string): T[] =>
  objects.filter((object) => object.kind === kind) as T[];

// A container's environment as the kubelet builds it: envFrom first, then env.
// Values from Secrets are known only by reference.
export type ResolvedEnv = Record<string, { value?: string; secret?: { name: string; key: string } }>;

export function resolveEnv(container: Container, configMaps: ConfigMap[]): ResolvedEnv {
  const env: ResolvedEnv = {};
  for (const source of container.envFrom ?? []) {
    const map = configMaps.find((candidate) => candidate.metadata.name === source.configMapRef?.name);
    for (const [name, value] of Object.entries(map?.data ?? {})) env[name] = { value };
  }
  for (const variable of container.env ?? []) {
    const fromMap = variable.valueFrom?.configMapKeyRef;
    if (variable.valueFrom?.secretKeyRef) env[variable.name] = { secret: variable.valueFrom.secretKeyRef };
    else if (fromMap) {
      const map = configMaps.find((candidate) => candidate.metadata.name === fromMap.name);
      env[variable.name] = { value: map?.data?.[fromMap.key] };
    } else env[variable.name] = { value: variable.value ?? '' };
  }
  return env;
}
