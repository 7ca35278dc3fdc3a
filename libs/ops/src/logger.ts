import { ConsoleLogger, type LogLevel } from '@nestjs/common';

const levelsFrom: Record<string, LogLevel[]> = {
  error: ['fatal', 'error'],
  warn: ['fatal', 'error', 'warn'],
  log: ['fatal', 'error', 'warn', 'log'],
  debug: ['fatal', 'error', 'warn', 'log', 'debug'],
  verbose: ['fatal', 'error', 'warn', 'log', 'debug', 'verbose'],
};

// One logger setup for every app: JSON lines for machines, colours for a terminal.
export function createLogger(app: string, settings: { LOG_LEVEL: string; LOG_FORMAT: 'json' | 'pretty' }) {
  return new ConsoleLogger(app, {
    json: settings.LOG_FORMAT === 'json',
    colors: settings.LOG_FORMAT === 'pretty',
    logLevels: levelsFrom[settings.LOG_LEVEL] ?? levelsFrom.log,
  });
}
