import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

// One container as the kubelet would start it from a pod's container spec,
// translated to `podman run` / `docker run` flags (test/images/region-from-manifests.ts).
export interface ContainerRun {
  name: string;
  image: string;
  args: string[];
  env: Record<string, string>;
  /** uid:gid */
  user?: string;
  readOnlyRootFilesystem: boolean;
  dropCapabilities: string[];
  noNewPrivileges: boolean;
  memoryLimit?: string;
}

export interface ContainerState {
  running: boolean;
  exitCode: number;
}

// The container engine `npm run test:images` chose (CONTAINER_ENGINE), driven
// through its command line. Every container is named by the caller with the
// formline-test- prefix: the only containers this ever removes.
export class ContainerEngine {
  constructor(readonly command: string) {}

  static fromEnvironment(): ContainerEngine {
    const command = process.env.CONTAINER_ENGINE;
    if (!command) throw new Error('CONTAINER_ENGINE is not set: run this test through `npm run test:images`');
    return new ContainerEngine(command);
  }

  async exec(args: string[]): Promise<string> {
    try {
      const { stdout } = await run(this.command, args, { maxBuffer: 64 * 1024 * 1024 });
      return stdout.trim();
    } catch (error) {
      const { stderr } = error as { stderr?: string };
      throw new Error(`${this.command} ${args.join(' ')} failed: ${stderr ?? String(error)}`, {
        cause: error,
      });
    }
  }

  // Detached, on the host's network (the engine's setting here; said again for docker).
  async start(container: ContainerRun): Promise<void> {
    if (!container.name.startsWith('formline-test-'))
      throw new Error(`${container.name}: test containers are named formline-test-*`);
    await this.remove(container.name);
    const flags = ['run', '--detach', '--name', container.name, '--network', 'host'];
    if (container.user) flags.push('--user', container.user);
    if (container.readOnlyRootFilesystem) {
      flags.push('--read-only');
      // A pod's read-only root has no writable /tmp or /run either.
      if (this.command.endsWith('podman')) flags.push('--read-only-tmpfs=false');
    }
    for (const capability of container.dropCapabilities) flags.push('--cap-drop', capability);
    if (container.noNewPrivileges) flags.push('--security-opt', 'no-new-privileges');
    if (container.memoryLimit) flags.push('--memory', container.memoryLimit);
    for (const [name, value] of Object.entries(container.env)) flags.push('--env', `${name}=${value}`);
    await this.exec([...flags, container.image, ...container.args]);
  }

  async state(name: string): Promise<ContainerState> {
    const [running, exitCode] = (
      await this.exec(['inspect', '--format', '{{.State.Running}} {{.State.ExitCode}}', name])
    ).split(' ');
    return { running: running === 'true', exitCode: Number(exitCode) };
  }

  /** Waits for the container to end on its own; its exit code. */
  async wait(name: string): Promise<number> {
    return Number((await this.exec(['wait', name])).split('\n').at(-1));
  }

  /** SIGTERM, then SIGKILL after `graceSeconds`, as the kubelet does. */
  async stop(name: string, graceSeconds: number): Promise<void> {
    await this.exec(['stop', '--time', String(graceSeconds), name]);
  }

  async logs(name: string): Promise<string> {
    const { stdout, stderr } = await run(this.command, ['logs', name], { maxBuffer: 64 * 1024 * 1024 });
    return `${stdout}${stderr}`;
  }

  async remove(name: string): Promise<void> {
    await run(this.command, ['rm', '--force', name]).catch(() => undefined);
  }

  async inspectImage(image: string): Promise<{ User: string; Labels: Record<string, string> | null }> {
    return JSON.parse(await this.exec(['image', 'inspect', '--format', '{{json .Config}}', image])) as {
      User: string;
      Labels: Record<string, string> | null;
    };
  }
}
