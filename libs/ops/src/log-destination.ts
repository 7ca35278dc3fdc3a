import pino from 'pino';

// Where an app's JSON lines go: stdout, written asynchronously so a line never
// waits for the pipe on the event loop, and gathered up to `bufferBytes` per
// write. At thousands of lines a second (one access line per HTTP request) a
// write per line costs a syscall and a wake-up of whatever reads the pipe: more
// than building the line. A quiet process still shows its lines within
// `flushEveryMs`; what is buffered is written synchronously when the process
// exits (pino registers that for its destinations), so only a kill -9 can
// lose the last moment's lines.
// `fd` is for tests; apps write to stdout (1).
export function bufferedStdout({ fd = 1, bufferBytes = 4096, flushEveryMs = 1000 } = {}): ReturnType<
  typeof pino.destination
> {
  const stream = pino.destination({ dest: fd, sync: false, minLength: bufferBytes });
  const timer = setInterval(() => stream.flush(), flushEveryMs);
  timer.unref();
  // Once closed (by a test, or ended at exit) there is nothing left to flush.
  stream.on('close', () => clearInterval(timer));
  return stream;
}
