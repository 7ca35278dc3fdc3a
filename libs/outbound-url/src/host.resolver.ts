import { Resolver } from 'node:dns/promises';

// Looks up the host of an outbound URL (an image to fetch, a webhook's
// receiver) within the request's deadline. The system's look-up (getaddrinfo)
// runs in libuv's thread pool, the one sharp and file reads use, and cannot
// be cancelled: a slow name server would hold a thread past any deadline.
// This asks the name servers directly (c-ares, no thread taken) and cancels
// the queries when the deadline passes. It does not read /etc/hosts: hosts
// allow-listed by name (OutboundUrlPolicy) keep the system's look-up,
// everything else is a public name anyway.
export type HostResolver = (host: string, signal: AbortSignal) => Promise<string[]>;

export const resolveHost: HostResolver = async (host, signal) => {
  signal.throwIfAborted();
  const resolver = new Resolver();
  const cancel = () => resolver.cancel();
  signal.addEventListener('abort', cancel, { once: true });
  try {
    const answers = await Promise.allSettled([resolver.resolve4(host), resolver.resolve6(host)]);
    signal.throwIfAborted();
    return answers.flatMap((answer) => (answer.status === 'fulfilled' ? answer.value : []));
  } finally {
    signal.removeEventListener('abort', cancel);
  }
};

// `work`, or the signal's reason as soon as it aborts: a resolver that does
// not heed the signal still cannot hold the caller past its deadline.
export function withinDeadline<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    if (signal.aborted) {
      work.catch(() => undefined);
      reject(signal.reason as Error);
      return;
    }
    const abort = () => reject(signal.reason as Error);
    signal.addEventListener('abort', abort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', abort));
  });
}
