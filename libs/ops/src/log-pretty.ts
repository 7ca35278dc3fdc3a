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

// A pino destination that writes each line pretty and at once (sync), so
// nothing is lost when the process exits right after logging.
export function prettyLogStream(out: NodeJS.WritableStream = process.stdout): { write(line: string): void } {
  return {
    write(line: string) {
      for (const part of line.split('\n')) if (part) out.write(`${formatPrettyLine(part)}\n`);
    },
  };
}
