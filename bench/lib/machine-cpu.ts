import { machineBusyMs } from './bench-stack';
import { sleep } from './bench-run';

// CPU per unit of work over the whole machine (every process and core, the
// load generator too): on these cores the machine is the bound, so this is
// what explains a rate's ratio. Shared by the intake and the pipeline.

// CPU spent from now on, in ms, by the whole machine (less its background,
// in cores, for the time elapsed) and by each part `parts` names (it reads
// their CPU ms so far, in one pass); call the result to read it.
export function cpuSpent(
  parts: () => Record<string, number>,
  backgroundCores: number,
): () => Record<string, number> {
  const read = (): Record<string, number> => ({ machine: machineBusyMs(), ...parts() });
  const [before, startedAt] = [read(), Date.now()];
  return () => {
    const after = read();
    const spent = Object.fromEntries(Object.entries(after).map(([name, ms]) => [name, ms - before[name]]));
    spent.machine -= backgroundCores * (Date.now() - startedAt);
    return spent;
  };
}

// Cores the machine keeps busy while nothing is asked of it (idle apps'
// timers, the servers, the bench's own polling), over `ms`: taken off each
// round's machine figure, or a slower round would be charged more of it per request.
export async function backgroundCores(ms: number): Promise<number> {
  const [busy, started] = [machineBusyMs(), Date.now()];
  await sleep(ms);
  return (machineBusyMs() - busy) / Math.max(1, Date.now() - started);
}

export function perRequestUs(spentMs: Record<string, number>, requests: number): Record<string, number> {
  return Object.fromEntries(
    Object.entries(spentMs).map(([name, ms]) => [name, (ms * 1000) / Math.max(1, requests)]),
  );
}

// "2210 (gateway 410, responses 620, ...)": the machine's figure, then its parts.
export function describeShares({ machine, ...parts }: Record<string, number>): string {
  const named = Object.entries(parts).map(([name, us]) => `${name} ${Math.round(us)}`);
  return `${Math.round(machine)}${named.length > 0 ? ` (${named.join(', ')})` : ''}`;
}
