import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { createLogger } from '@formline/ops';
import { nestComplaint, nestLoggerContexts, StartupComplaints } from './nest-startup-complaints';
import { repositoryRoot } from './repository-root';

// The lines an app prints, made by the apps' own logger (JSON, as the harness
// runs them), with Nest's logger calling it as Nest does: message, then context.
function appLines(write: (logger: ReturnType<typeof createLogger>) => void): string[] {
  const lines: string[] = [];
  const logger = createLogger(
    'media',
    { LOG_LEVEL: 'log', LOG_FORMAT: 'json', REGION: 'us' },
    {
      write: (line: string) => lines.push(...line.split('\n').filter(Boolean)),
    },
  );
  write(logger);
  return lines;
}

const late = 'Cannot apply global interceptors: registration must occur before initialization.';

describe("Nest's complaints while apps start", () => {
  it("finds a warning or an error of Nest's own loggers", () => {
    const lines = appLines((logger) => {
      logger.warn(late, 'NestMicroservice');
      logger.error('Unknown route', 'stack', 'RoutesResolver');
    });
    expect(lines.map((line) => nestComplaint(line)?.text)).toEqual([
      `WARN [NestMicroservice] ${late}`,
      'ERROR [RoutesResolver] Unknown route',
    ]);
    expect(Math.abs(nestComplaint(lines[0])!.at - Date.now())).toBeLessThan(5000);
  });

  it("passes Nest's other lines, our own loggers' warnings and lines that are not JSON", () => {
    const lines = appLines((logger) => {
      logger.log('Nest microservice successfully started', 'NestMicroservice');
      logger.warn('A server this service depends on is away', 'RpcErrorFilter');
      logger.error('no context');
    });
    expect([...lines, '(node:1) Warning: something', ''].map(nestComplaint)).toEqual(
      new Array(lines.length + 2).fill(undefined),
    );
  });

  it('lists the complaints by app that were logged before the apps were started, whenever they are read', async () => {
    const [early] = appLines((logger) => logger.warn(late, 'NestMicroservice'));
    const complaints = new StartupComplaints();
    complaints.note('us gateway', appLines((logger) => logger.log('up', 'NestApplication'))[0]);
    complaints.started();
    await new Promise((resolve) => setTimeout(resolve, 5));
    const [afterwards] = appLines((logger) => logger.error('NatsError: type: "disconnect".', 'Server'));
    // Read after the start (an app writes its lines in batches): still the start's.
    complaints.note('us media', early);
    complaints.note('us media', afterwards);
    expect(complaints.list()).toEqual([`us media: WARN [NestMicroservice] ${late}`]);
  });

  it("knows every context Nest's own loggers log under", () => {
    const nest = path.join(repositoryRoot(), 'node_modules', '@nestjs');
    const found = new Set<string>();
    const scan = (dir: string): void => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const at = path.join(dir, entry.name);
        if (entry.isDirectory() && entry.name !== 'node_modules') scan(at);
        else if (entry.name.endsWith('.js')) {
          for (const match of readFileSync(at, 'utf8').matchAll(/new Logger\(\s*(?:(\w+)\.name|'(\w+)')/g))
            found.add(match[1] ?? match[2]);
        }
      }
    };
    for (const name of ['common', 'core', 'microservices', 'platform-fastify', 'testing'])
      scan(path.join(nest, name));
    expect(found.size).toBeGreaterThan(10);
    expect([...found].filter((context) => !nestLoggerContexts.has(context))).toEqual([]);
  });
});
