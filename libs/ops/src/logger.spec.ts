import { Logger } from '@nestjs/common';
import { createLogger, type LogSettings } from './logger';
import { formatPrettyLine, prettyLogStream } from './log-pretty';
import { REDACTED, redactText, redactValue } from './log-redaction';
import { currentRequestId, runWithRequestId } from './request-context';
import { Subjects } from '@formline/contracts';

function capture(level: LogSettings['LOG_LEVEL'] = 'log') {
  const lines: string[] = [];
  const logger = createLogger(
    'gateway',
    { LOG_LEVEL: level, LOG_FORMAT: 'json', REGION: 'eu' },
    {
      write: (line: string) => void lines.push(line),
    },
  );
  const entries = () => lines.map((line) => JSON.parse(line) as Record<string, any>);
  return { logger, entries };
}

describe('createLogger', () => {
  it('writes one JSON object a line, naming app, region, level, context and message', () => {
    const { logger, entries } = capture();
    logger.log('started', 'Main');
    logger.warn({ msg: 'slow', durationMs: 1200 }, 'Db');
    logger.error('failed', 'Error: boom\n    at x', 'Filter');
    expect(entries()).toEqual([
      expect.objectContaining({
        level: 'info',
        app: 'gateway',
        region: 'eu',
        context: 'Main',
        msg: 'started',
      }),
      expect.objectContaining({ level: 'warn', context: 'Db', msg: 'slow', durationMs: 1200 }),
      expect.objectContaining({
        level: 'error',
        context: 'Filter',
        msg: 'failed',
        stack: 'Error: boom\n    at x',
      }),
    ]);
    expect(typeof entries()[0].time).toBe('string');
  });

  it('carries the request id of the work it logs from', async () => {
    const { logger, entries } = capture();
    await runWithRequestId('req-123', async () => {
      await new Promise((resolve) => setTimeout(resolve, 1));
      expect(currentRequestId()).toBe('req-123');
      logger.log('inside');
    });
    logger.log('outside');
    expect(entries()[0].requestId).toBe('req-123');
    expect(entries()[1].requestId).toBeUndefined();
  });

  it('honours LOG_LEVEL', () => {
    const { logger, entries } = capture('warn');
    logger.log('quiet');
    logger.debug('quieter');
    logger.warn('loud');
    expect(entries().map((entry) => entry.msg)).toEqual(['loud']);
  });

  it('serves NestJS loggers', () => {
    const { logger, entries } = capture();
    Logger.overrideLogger(logger);
    new Logger('SomeService').log('through Nest');
    Logger.overrideLogger(false);
    expect(entries()).toEqual([expect.objectContaining({ context: 'SomeService', msg: 'through Nest' })]);
  });

  it('never writes credentials or answers, whatever it is given', () => {
    const { logger, entries } = capture();
    const token = 'tfp_' + 'A'.repeat(43);
    logger.log({
      msg: `called with bearer ${token}`,
      request: { headers: { authorization: `bearer ${token}`, 'x-request-id': 'r1', cookie: 'sid=1' } },
      body: {
        client_secret: 'tfs_x',
        password: 'hunter2',
        refresh_token: 'tfr_y',
        answers: [{ text: 'private' }],
      },
      url: 'postgresql://forms:s3cret@db.internal/formline',
      tokenHash: 'ab12',
    });
    logger.error(`failed for ${token}`);
    const text = JSON.stringify(entries());
    for (const secret of [token, 'sid=1', 'tfs_x', 'hunter2', 'tfr_y', 'private', 's3cret'])
      expect(text).not.toContain(secret);
    expect(entries()[0]).toMatchObject({
      request: { headers: { authorization: REDACTED, 'x-request-id': 'r1', cookie: REDACTED } },
      body: { client_secret: REDACTED, password: REDACTED, refresh_token: REDACTED, answers: REDACTED },
      url: `postgresql://forms:${REDACTED}@db.internal/formline`,
      tokenHash: 'ab12',
    });
  });
});

describe('redaction', () => {
  it('withholds secrets in free text', () => {
    expect(redactText('Authorization: Bearer abc.def-ghi')).toBe(`Authorization: Bearer ${REDACTED}`);
    expect(redactText('token tfo_abcdefghijklmnopqrstuvwxyz012345 used')).toBe(`token ${REDACTED} used`);
    expect(redactText('nothing here: /forms/abc?page=2')).toBe('nothing here: /forms/abc?page=2');
  });

  it('leaves the original untouched', () => {
    const original = { password: 'x', nested: { token: 'y' } };
    expect(redactValue(original)).toEqual({ password: REDACTED, nested: { token: REDACTED } });
    expect(original).toEqual({ password: 'x', nested: { token: 'y' } });
  });
});

describe('LOG_FORMAT=pretty', () => {
  it('lays a line out for a person', () => {
    const line = JSON.stringify({
      level: 'info',
      time: '2026-01-02T03:04:05.678Z',
      app: 'global',
      region: 'us',
      pid: 1,
      context: 'NatsRequest',
      requestId: 'r1',
      msg: 'handled',
      subject: Subjects.formsFormGet,
    });
    expect(formatPrettyLine(line)).toBe(
      '03:04:05.678 INFO  [global/NatsRequest] (r1) handled {"subject":"forms.form.get.v1"}',
    );
  });

  it('never writes to the stdout stream on the event loop: lines go to the batched writer', () => {
    const written = jest.spyOn(process.stdout, 'write').mockImplementation(() => true);
    try {
      prettyLogStream().write(
        `${JSON.stringify({ level: 'info', time: '2026-01-02T03:04:05.678Z', app: 'gateway', msg: 'batched' })}\n`,
      );
      expect(written).not.toHaveBeenCalled();
    } finally {
      written.mockRestore();
    }
  });
});
