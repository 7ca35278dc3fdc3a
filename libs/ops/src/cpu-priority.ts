import { readdirSync } from 'node:fs';
import { setPriority } from 'node:os';

// Lowers this process's CPU priority: sets the nice value (0 to 19; higher
// gives way more) of each of its threads. On Linux nice belongs to a thread,
// not to a process: a process id names its main thread only, so each thread
// listed in /proc/self/task is set, and a thread started later (libuv's pool,
// an image library's own workers) takes the value of the thread that starts
// it. Raising one's own nice value needs no privilege. Elsewhere (no /proc)
// the process is set as a whole. Answers how many threads were set.
export function lowerCpuPriority(nice: number): number {
  if (nice <= 0) return 0;
  let threads: number[];
  try {
    threads = readdirSync('/proc/self/task').map(Number);
  } catch {
    threads = [0];
  }
  let lowered = 0;
  for (const thread of threads) {
    try {
      setPriority(thread, Math.min(19, nice));
      lowered += 1;
    } catch {
      // A thread that ended since it was listed has no priority to set.
    }
  }
  return lowered;
}
