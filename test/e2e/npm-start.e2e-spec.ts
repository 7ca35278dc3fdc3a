import { type ChildProcess, spawn } from 'node:child_process';
import { readdirSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import path from 'node:path';
import {
  callApi,
  fitsNodeLine,
  freePort,
  freeProfilePorts,
  nestLoggerContexts,
  openAuthorizePage,
  pkcePair,
  submitConsent,
  testInfra,
} from '@formline/testing';
import { appNames } from '@formline/stack';

const root = path.resolve(__dirname, '../..');

// `npm start` as a newcomer meets it (scripts/start.sh, on its own data folder
// and ports): both regions come up, the printed curl lines answer 200 with the
// demo form on both base addresses, an app killed with kill -9 comes back by
// itself, no app prints a warning from Nest itself, and Ctrl-C stops
// everything it started.
// Its own setup, not the shared fixture's: `npm start` starts everything itself.
describe('npm start', () => {
  const dataDir = path.join(testInfra().dataDir, 'npm-start');
  let start: ChildProcess;
  let output = '';
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    rmSync(dataDir, { recursive: true, force: true });
    // Below the kernel's ephemeral range (where freePort() draws from) and away
    // from the fixed test ports: one health port an app, the two regions' side by side.
    const opsBase = 29_000 + Math.floor(Math.random() * 99) * 2 * appNames.length;
    env = {
      ...process.env,
      DATA_DIR: dataDir,
      ...(await freeProfilePorts()),
      US_HTTP_PORT: String(await freePort()),
      EU_HTTP_PORT: String(await freePort()),
      US_OPS_PORT_BASE: String(opsBase),
      EU_OPS_PORT_BASE: String(opsBase + appNames.length),
      US_MEDIA_PORT: String(await freePort()),
      EU_MEDIA_PORT: String(await freePort()),
      // A documented app variable set around `npm start` must reach the apps.
      RATE_LIMIT_REQUESTS: '3',
    };
    // Its own process group, as a terminal would run it.
    start = spawn('bash', [path.join(root, 'scripts/start.sh')], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    start.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    start.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    await waitFor(
      () => output.includes('Press Ctrl-C'),
      180_000,
      () => output,
    );
  }, 200_000);

  afterAll(() => {
    if (start.exitCode === null) killGroup(start, 'SIGKILL');
  });

  it('prints both base addresses and working curl lines for both demo accounts', async () => {
    expect(output).toContain(`{base_url}     http://127.0.0.1:${env.US_HTTP_PORT}`);
    expect(output).toContain(`{eu_base_url}  http://127.0.0.1:${env.EU_HTTP_PORT}`);
    const curls = [...output.matchAll(/curl -H "Authorization: bearer (\S+)" (\S+)/g)];
    expect(curls).toHaveLength(2);
    for (const [, token, url] of curls) {
      const fromUs = await callApi(url, { token });
      const fromEu = await callApi(url.replace(`:${env.US_HTTP_PORT}/`, `:${env.EU_HTTP_PORT}/`), { token });
      expect(fromUs.status).toBe(200);
      expect(fromEu.status).toBe(200);
      expect(fromEu.text).toBe(fromUs.text);
    }
    // And where to answer each demo form: its page, in the form's region (the EU's after a redirect).
    const pages = [...output.matchAll(/answer it in a browser: (\S+)/g)].map(([, url]) => url);
    expect(pages).toHaveLength(2);
    for (const url of pages) {
      const page = await fetch(url);
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toContain('text/html');
      expect(await page.text()).toContain('<title>Customer feedback');
    }
  });

  it("prints the console's address on each base address, and demo sign-ins that open it", async () => {
    const [, us, eu] = /Console\s+(\S+)\s+(\S+)/.exec(output) ?? [];
    expect([us, eu]).toEqual([
      `http://127.0.0.1:${env.US_HTTP_PORT}/console`,
      `http://127.0.0.1:${env.EU_HTTP_PORT}/console`,
    ]);
    for (const url of [us, eu]) expect((await fetch(url)).status).toBe(200);
    const signIns = [...output.matchAll(/sign in to the console: (\S+) \/ (\S+)/g)];
    expect(signIns).toHaveLength(2);
    for (const [, email, password] of signIns) {
      const pkce = pkcePair();
      const query = new URLSearchParams({
        response_type: 'code',
        client_id: 'formline-console',
        redirect_uri: us,
        scope: 'forms:read',
        state: 'start',
        code_challenge: pkce.challenge,
        code_challenge_method: 'S256',
      });
      const page = await openAuthorizePage(
        `${us.slice(0, -'/console'.length)}/oauth/authorize?${query.toString()}`,
      );
      const answer = await submitConsent(page, { email, password, decision: 'allow' });
      expect(answer.location?.searchParams.get('code')).toEqual(expect.any(String));
    }
  });

  it("says which Node.js it runs the apps on: one of the product's line", () => {
    const [, version, binary] = /Node\.js\s+(v\S+)\s+\((\S+)\)/.exec(output) ?? [];
    expect({ version, fits: fitsNodeLine(version ?? '') }).toEqual({ version, fits: true });
    // The apps are that node's processes.
    const gateway = appPid(start.pid!, 'gateway', 'us');
    expect(realpathSync(`/proc/${gateway}/exe`)).toBe(realpathSync(binary));
  });

  it('restarts an app that dies (kill -9), prints it, and serves again', async () => {
    const [, token, url] = /curl -H "Authorization: bearer (\S+)" (\S+)/.exec(output)!;
    const gateway = appPid(start.pid!, 'gateway', 'us');
    const before = output.length;
    process.kill(gateway, 'SIGKILL');
    await waitFor(
      () => /\[us gateway\s*\] \[supervisor\] ready again/.test(output.slice(before)),
      60_000,
      () => output.slice(before),
    );
    expect(output.slice(before)).toMatch(
      /\[us gateway\s*\] \[supervisor\] killed by SIGKILL after .*; restart 1 in 1\.0 s/,
    );
    expect(appPid(start.pid!, 'gateway', 'us')).not.toBe(gateway);
    expect((await callApi(url, { token })).status).toBe(200);
  }, 90_000);

  it('passes documented configuration variables set in its environment on to the apps', async () => {
    const [, token, url] = /curl -H "Authorization: bearer (\S+)" (\S+)/.exec(output)!;
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await callApi(url, { token })).status);
    // RATE_LIMIT_REQUESTS=3: the fourth request of the window at the latest is refused
    // (the default, 600, would answer them all).
    expect(statuses).toContain(429);
  });

  it('prints no warning or error from Nest itself', async () => {
    // An app writes its lines at least once a second (libs/ops log-destination.ts).
    await new Promise((resolve) => setTimeout(resolve, 1500));
    // `[us media     ] 07:35:48.047 WARN  [media/NestMicroservice] ...`, the launcher's label first.
    const complaints = [...output.matchAll(/^\[[^\]]+\] \S+ (WARN|ERROR|FATAL)\s+\[[^\]/]+\/([^\]]+)\].*$/gm)]
      .filter(([, , context]) => nestLoggerContexts.has(context))
      .map(([line]) => line);
    expect(complaints).toEqual([]);
  });

  it('stops the apps and the infrastructure on Ctrl-C', async () => {
    const exited = new Promise<number | null>((resolve) => start.once('exit', resolve));
    killGroup(start, 'SIGINT'); // what Ctrl-C does: the signal goes to the whole group
    expect(await exited).toBe(0);
    const status = await new Promise<string>((resolve) => {
      const child = spawn('bash', [path.join(root, 'scripts/infra.sh'), 'status'], {
        env: { ...env, FORMLINE_PROFILE: 'dev' },
      });
      let text = '';
      child.stdout.on('data', (chunk: Buffer) => (text += chunk.toString()));
      child.once('exit', () => resolve(text));
    });
    expect(status).not.toContain('running');
    const gateway = await fetch(`http://127.0.0.1:${env.US_HTTP_PORT}/forms/x`).catch(() => undefined);
    expect(gateway).toBeUndefined();
  });
});

// The process of one app of `npm start` (in its process group), found as `ps` would.
function appPid(group: number, app: string, region: string): number {
  const found = readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((pid) => {
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
        const groupId = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]);
        const command = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
        const environment = readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0');
        return (
          groupId === group &&
          command.includes(`apps/${app}/main.js`) &&
          environment.includes(`REGION=${region}`)
        );
      } catch {
        return false; // gone meanwhile
      }
    });
  if (found.length !== 1) throw new Error(`expected one ${region} ${app} process, found ${found.length}`);
  return Number(found[0]);
}

function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  try {
    process.kill(-child.pid!, signal);
  } catch {
    // already gone
  }
}

async function waitFor(done: () => boolean, timeoutMs: number, describe: () => string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`timed out; output so far:\n${describe()}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
