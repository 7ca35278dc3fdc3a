import { accessLogWriter } from './access-log';
import { createLogger, type LogSettings } from './logger';
import { isoTimeOf } from './log-time';

function capture(level: LogSettings['LOG_LEVEL'] = 'log') {
  const lines: string[] = [];
  const logger = createLogger(
    'gateway',
    { LOG_LEVEL: level, LOG_FORMAT: 'json', REGION: 'us' },
    { write: (line: string) => void lines.push(line) },
  );
  return { child: logger.pino.child({ context: 'HttpRequest' }), lines };
}

const line = {
  requestId: 'req-1',
  method: 'GET',
  route: '/forms/:form_id',
  path: '/forms/abc',
  status: 200,
  durationMs: 1.5,
};

describe('accessLogWriter', () => {
  it("writes the line pino would write: same fields, same order, the logger's bindings", () => {
    const { child, lines } = capture();
    child.info(line, 'request completed');
    accessLogWriter(child)(line);
    const [byPino, byHand] = lines.map((text) => JSON.parse(text) as Record<string, unknown>);
    expect(Object.keys(byHand)).toEqual(Object.keys(byPino));
    expect({ ...byHand, time: undefined }).toEqual({ ...byPino, time: undefined });
    expect(byHand).toMatchObject({ app: 'gateway', region: 'us', context: 'HttpRequest', level: 'info' });
    expect(lines[1].endsWith('}\n')).toBe(true);
  });

  it('withholds secrets in the caller-chosen texts and escapes them as JSON', () => {
    const { child, lines } = capture();
    const token = `tfp_${'a'.repeat(40)}`;
    accessLogWriter(child)({ ...line, requestId: token, path: `/forms/"${token}\\` });
    const entry = JSON.parse(lines[0]) as Record<string, unknown>;
    expect(lines[0]).not.toContain(token);
    expect(entry.requestId).toBe('[REDACTED]');
    expect(entry.path).toBe('/forms/"[REDACTED]\\');
  });

  it('honours LOG_LEVEL', () => {
    const { child, lines } = capture('warn');
    accessLogWriter(child)(line);
    expect(lines).toEqual([]);
  });
});

describe('isoTimeOf', () => {
  it("writes a line's time as Date's ISO text, within a second and across seconds", () => {
    const start = Date.parse('2026-11-26T17:34:59.990Z');
    for (let ms = start; ms < start + 2500; ms += 7) {
      expect(isoTimeOf(ms)).toBe(new Date(ms).toISOString());
    }
    expect(isoTimeOf(start - 86_400_000)).toBe(new Date(start - 86_400_000).toISOString());
  });
});
