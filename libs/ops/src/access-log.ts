import pino, { type Logger as Pino } from 'pino';
import { redactText } from './log-redaction';
import { isoTimeNow } from './log-time';

/** What the gateway's one line per HTTP request says. */
export interface AccessLine {
  requestId: string;
  method: string;
  route: string;
  path: string;
  status: number;
  durationMs: number;
}

// The gateway's access line, written straight to the logger's destination:
// the JSON pino would write for `logger.info(line, 'request completed')`
// (same fields in the same order, the logger's bindings, `time` as ISO text)
// without pino's per-line work (mixin, merged copy, redaction walk, generic
// serialisation), which was most of the line's cost on the read path. Its
// names are fixed and none is secret; the two texts a caller chooses, the
// request id and the path, get the same free-text redaction as any line.
export function accessLogWriter(logger: Pino, msg = 'request completed'): (line: AccessLine) => void {
  const stream = (logger as unknown as Record<symbol, pino.DestinationStream>)[pino.symbols.streamSym];
  const bindings = (logger as unknown as Record<symbol, string>)[pino.symbols.chindingsSym];
  const end = `,"msg":${JSON.stringify(msg)}}\n`;
  return (line) => {
    if (!logger.isLevelEnabled('info')) return;
    const duration = Number.isFinite(line.durationMs) ? line.durationMs : null;
    stream.write(
      `{"level":"info","time":"${isoTimeNow()}"${bindings},"requestId":${JSON.stringify(redactText(line.requestId))}` +
        `,"method":${JSON.stringify(line.method)},"route":${JSON.stringify(line.route)}` +
        `,"path":${JSON.stringify(redactText(line.path))},"status":${line.status},"durationMs":${duration}${end}`,
    );
  };
}
