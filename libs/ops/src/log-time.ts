// The `time` of a log line, as pino's isoTime writes it
// (`2026-11-26T17:34:12.175Z`), without a Date and its formatting per line:
// the part up to the second is made once a second. Every line of every app
// has one, and the gateway writes a line per HTTP request.
let second = Number.NaN;
let prefix = '';

export function isoTimeOf(epochMs: number): string {
  const s = Math.floor(epochMs / 1000);
  if (s !== second) {
    second = s;
    prefix = new Date(s * 1000).toISOString().slice(0, 20);
  }
  const ms = epochMs - s * 1000;
  return `${prefix}${ms < 10 ? '00' : ms < 100 ? '0' : ''}${ms}Z`;
}

export function isoTimeNow(): string {
  return isoTimeOf(Date.now());
}
