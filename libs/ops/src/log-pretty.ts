import { bufferedStdout } from './log-destination';

// LOG_FORMAT=pretty: the same lines as JSON, laid out for a person at a
// terminal (`npm start`): time, level, app and context, request id, message,
// then any other fields. Machines should read the JSON format.

const shown = new Set(['time', 'level', 'app', 'region', 'pid', 'context', 'requestId', 'msg']);

const text = (value: unknown) =>
  typeof value === 'string' || typeof value === 'number' ? String(value) : '';

export function formatPrettyLine(line: string): string {
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return line;
  }
  const time = typeof entry.time === 'string' ? entry.time.slice(11, 23) : '';
  const level = text(entry.level).toUpperCase().padEnd(5);
  const where = [entry.app, entry.context].filter(Boolean).join('/');
  const requestId = entry.requestId ? ` (${text(entry.requestId)})` : '';
  const extra = Object.fromEntries(Object.entries(entry).filter(([key]) => !shown.has(key)));
  const more = Object.keys(extra).length > 0 ? ` ${JSON.stringify(extra)}` : '';
  return `${time} ${level} [${where}]${requestId} ${text(entry.msg)}${more}`;
}

// A pino destination that lays each line out pretty and hands it to `out`:
// by default stdout through the same batched, asynchronous writer as JSON
// lines (log-destination.ts), which writes what is gathered synchronously
// when the process exits. Writing each line to stdout at once, as this did,
// waited on the pipe on the event loop: behind `npm start`'s launcher, which
// reads every app's pipe, a gateway answering hundreds of requests a second
// stalled on its own access lines whenever the launcher fell behind.
export function prettyLogStream(out: { write(text: string): unknown } = bufferedStdout()): {
  write(line: string): void;
} {
  return {
    write(line: string) {
      for (const part of line.split('\n')) if (part) out.write(`${formatPrettyLine(part)}\n`);
    },
  };
}
