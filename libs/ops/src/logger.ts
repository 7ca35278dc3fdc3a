import type { LogGroupSettings } from '@formline/config';
import type { LoggerService } from '@nestjs/common';
import pino, { type Logger as Pino } from 'pino';
import { bufferedStdout } from './log-destination';
import { prettyLogStream } from './log-pretty';
import { redactText, redactValue } from './log-redaction';
import { isoTimeNow } from './log-time';
import { currentRequestId } from './request-context';

// The log group's settings (libs/config logVars), and the region to stamp on each line.
export type LogSettings = LogGroupSettings & { REGION?: string };

// Our LOG_LEVEL names are NestJS's; pino calls `log` info and `verbose` trace.
const pinoLevels: Record<string, pino.Level> = {
  error: 'error',
  warn: 'warn',
  log: 'info',
  debug: 'debug',
  verbose: 'trace',
};

// One logger for every app: one JSON object a line (pino), each naming the
// app, its region and, inside a request, the request id; secrets and answers
// withheld (log-redaction.ts). NestJS and our own code log through it alike.
// `destination` is for tests; apps write to stdout.
export function createLogger(
  app: string,
  settings: LogSettings,
  destination: pino.DestinationStream = settings.LOG_FORMAT === 'pretty'
    ? prettyLogStream()
    : bufferedStdout(),
): AppLogger {
  const logger = pino(
    {
      level: pinoLevels[settings.LOG_LEVEL] ?? 'info',
      base: { app, ...(settings.REGION ? { region: settings.REGION } : {}), pid: process.pid },
      timestamp: () => `,"time":"${isoTimeNow()}"`,
      formatters: {
        level: (label) => ({ level: label }),
        log: (object) => redactValue(object) as Record<string, unknown>,
      },
      mixin: () => {
        const requestId = currentRequestId();
        return requestId ? { requestId } : {};
      },
      hooks: {
        // Messages are free text: they may quote a header or a URL.
        logMethod(args, method) {
          method.apply(this, args.map((arg) => (typeof arg === 'string' ? redactText(arg) : arg)) as never);
        },
      },
    },
    destination,
  );
  return new AppLogger(logger);
}

type Level = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';

// NestJS's LoggerService on pino. Nest passes the context (the class that
// logs) as the last argument, and a stack before it for errors.
export class AppLogger implements LoggerService {
  constructor(readonly pino: Pino) {}

  log(message: unknown, ...params: unknown[]): void {
    this.write('info', message, params);
  }
  error(message: unknown, ...params: unknown[]): void {
    this.write('error', message, params);
  }
  warn(message: unknown, ...params: unknown[]): void {
    this.write('warn', message, params);
  }
  debug(message: unknown, ...params: unknown[]): void {
    this.write('debug', message, params);
  }
  verbose(message: unknown, ...params: unknown[]): void {
    this.write('trace', message, params);
  }
  fatal(message: unknown, ...params: unknown[]): void {
    this.write('fatal', message, params);
  }

  private write(level: Level, message: unknown, params: unknown[]): void {
    if (!this.pino.isLevelEnabled(level)) return;
    const rest = params.filter((param) => param !== undefined);
    const fields: Record<string, unknown> = {};
    if (rest.length > 0 && typeof rest[rest.length - 1] === 'string') fields.context = rest.pop();
    if ((level === 'error' || level === 'fatal') && typeof rest[0] === 'string') fields.stack = rest.shift();
    if (rest.length > 0) fields.params = rest;
    let text: string;
    if (message instanceof Error) {
      text = message.message;
      fields.stack ??= message.stack;
    } else if (typeof message === 'object' && message !== null) {
      const { msg, message: inner, ...more } = message as Record<string, unknown>;
      Object.assign(fields, more);
      text = typeof msg === 'string' ? msg : typeof inner === 'string' ? inner : '';
    } else {
      text = String(message);
    }
    this.pino[level](fields, text);
  }
}
