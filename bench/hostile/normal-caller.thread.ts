import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { type CallSample, NormalCaller, type NormalCallerSettings } from './normal-caller';

// The normal caller on a thread of its own: the attackers keep the check's
// main event loop busy (thousands of requests a second), and a caller timed on
// that loop would measure the check's own delays as the gateway's.

type Message = { phase: string } | { stop: true };

if (!isMainThread && parentPort) {
  const port = parentPort;
  const settings = workerData as Omit<NormalCallerSettings, 'base'> & { base: string };
  const caller = new NormalCaller({ ...settings, base: new URL(settings.base) });
  caller.start();
  port.on('message', (message: Message) => {
    if ('phase' in message) caller.phase = message.phase;
    else void caller.stop().then(() => port.postMessage(caller.samples));
  });
}

export class NormalCallerThread {
  private readonly worker: Worker;

  constructor(settings: NormalCallerSettings) {
    this.worker = new Worker(__filename, { workerData: { ...settings, base: settings.base.href } });
  }

  set phase(phase: string) {
    this.worker.postMessage({ phase } satisfies Message);
  }

  /** Stops calling, waits for the calls under way, and gives every sample. */
  async stop(): Promise<CallSample[]> {
    const samples = new Promise<CallSample[]>((resolve) => this.worker.once('message', resolve));
    this.worker.postMessage({ stop: true } satisfies Message);
    const all = await samples;
    await this.worker.terminate();
    return all;
  }
}
