import type { LoggerService } from '@nestjs/common';

// On SIGTERM or SIGINT: run `stop` once (stop taking work, finish in-flight
// work, close connections), then exit. If it hangs past the deadline, exit
// anyway: Kubernetes would kill the pod at its grace period regardless.
export function stopOnSignal(logger: LoggerService, stop: () => Promise<void>, deadlineMs = 25_000): void {
  let stopping = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    logger.log(`${signal} received: shutting down`);
    const deadline = setTimeout(() => {
      logger.error(`shutdown took longer than ${deadlineMs} ms: exiting`);
      process.exit(1);
    }, deadlineMs);
    deadline.unref();
    stop().then(
      () => process.exit(0),
      (error: unknown) => {
        logger.error(`shutdown failed: ${String(error)}`);
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', onSignal);
  process.once('SIGINT', onSignal);
}
