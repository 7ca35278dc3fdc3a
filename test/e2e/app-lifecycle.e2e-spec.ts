import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { appNames, readinessStatus } from '@formline/stack';
import { useTestRegions } from '@formline/testing';

const root = path.resolve(__dirname, '../..');

// Every app boots, connects to what it needs, reports ready, and on SIGTERM
// stops cleanly; a bad configuration stops it at boot, naming the variable.
describe('app lifecycle', () => {
  const { regions } = useTestRegions({ regions: ['eu'] });

  it('starts all five apps of a region, each live and ready', async () => {
    const stack = regions.stacks.eu!;
    for (const app of appNames) {
      expect(await readinessStatus(stack.settings.opsPorts[app])).toBe(200);
      const live = await fetch(`http://127.0.0.1:${stack.settings.opsPorts[app]}/health/live`);
      expect(live.status).toBe(200);
    }
  });

  it('stops every app on SIGTERM with exit code 0', async () => {
    const stack = regions.stacks.eu!;
    const codes = await Promise.all(appNames.map((app) => stack.app(app).stop(15_000)));
    expect(codes).toEqual(appNames.map(() => 0));
  });

  it.each([
    ['gateway', 'HTTP_PORT'],
    ['global', 'GLOBAL_DATABASE_URL'],
    ['responses', 'RESPONSES_DATABASE_URL'],
    ['webhooks', 'WEBHOOKS_DATABASE_URL'],
    ['dispatcher', 'WEBHOOKS_DATABASE_URL'],
  ])('%s refuses to start without %s, and names it', (app, variable) => {
    const result = spawnSync(process.execPath, [path.join(root, 'dist/apps', app, 'main.js')], {
      env: {
        PATH: process.env.PATH,
        REGION: 'eu',
        BASE_URL: 'http://a.example',
        EU_BASE_URL: 'http://b.example',
      },
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(result.status).toBe(78);
    expect(result.stderr).toContain(`${variable} is missing`);
  });

  it('names an invalid variable and why', () => {
    const result = spawnSync(process.execPath, [path.join(root, 'dist/apps/global/main.js')], {
      env: {
        PATH: process.env.PATH,
        REGION: 'mars',
        BASE_URL: 'not a url',
        EU_BASE_URL: 'http://b.example',
        OPS_PORT: '0',
        GLOBAL_DATABASE_URL: 'postgresql://x/y',
      },
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(result.status).toBe(78);
    expect(result.stderr).toContain('REGION is invalid');
    expect(result.stderr).toContain('BASE_URL is invalid');
  });
});
