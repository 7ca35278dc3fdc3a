import pino from 'pino';

// Where an app's JSON lines go: stdout, written asynchronously so a line never
// waits for the pipe on the event loop, and gathered up to `bufferBytes` per
// write. At thousands of lines a second (one access line per HTTP request) a
// write per line costs a syscall and a wake-up of whatever reads the pipe: more
// than building the line. A quiet process still shows its lines within
// `flushEveryMs`; what is buffered is written synchronously when the process
// exits, so only a kill -9 can lose the last moment's lines.
//
// The lines are gathered here, in an array, and handed to pino's writer
// (sonic-boom) a batch at a time: sonic-boom's own buffering measures and
// flattens everything it holds on every write, which cost the gateway's read
// path about 20 µs of CPU per request (bench).
// `fd` is for tests; apps write to stdout (1).
export function bufferedStdout({ fd = 1, bufferBytes = 4096, flushEveryMs = 1000 } = {}): BufferedLines {
  return new BufferedLines(fd, bufferBytes, flushEveryMs);
}

export class BufferedLines implements pino.DestinationStream {
  private lines: string[] = [];
  private length = 0;
  private readonly out: ReturnType<typeof pino.destination>;
  private readonly timer: NodeJS.Timeout;
  private readonly atExit = () => this.flushSync();

  constructor(
    fd: number,
    private readonly bufferBytes: number,
    flushEveryMs: number,
  ) {
    // minLength 0: a batch handed over is written at once (or right after the write under way).
    this.out = pino.destination({ dest: fd, sync: false, minLength: 0 });
    this.timer = setInterval(() => this.flush(), flushEveryMs);
    this.timer.unref();
    process.on('exit', this.atExit);
  }

  write(line: string): void {
    this.lines.push(line);
    // Characters, not bytes: a bound on the batch, not an exact size.
    this.length += line.length;
    if (this.length >= this.bufferBytes) this.flush();
  }

  /** Hands what is gathered to the writer, which writes it asynchronously. */
  flush(): void {
    if (this.lines.length === 0) return;
    const batch = this.lines.join('');
    this.lines = [];
    this.length = 0;
    this.out.write(batch);
  }

  /**
   * Writes everything gathered before returning (at exit). A batch the writer
   * already has under way is finished by its thread, not here: at a normal exit
   * Node waits for it; only process.exit() in that instant can cut it.
   */
  flushSync(): void {
    this.flush();
    try {
      this.out.flushSync();
    } catch {
      // Already closed: nothing left to write.
    }
  }

  /** Writes what is gathered and closes; resolves once closed. */
  close(): Promise<void> {
    clearInterval(this.timer);
    process.off('exit', this.atExit);
    this.flush();
    return new Promise((resolve) => {
      this.out.once('close', () => resolve());
      this.out.end();
    });
  }
}
