import { readFileSync } from 'node:fs';
import type { AppName, RegionStack } from '@formline/stack';

export interface MemorySample {
  app: AppName;
  pid: number;
  rssBytes: number;
  at: number;
}

// The resident memory of each app of a stack, as the kernel counts it (VmRSS).
export function sampleMemory(stack: RegionStack): MemorySample[] {
  const samples: MemorySample[] = [];
  for (const [app, process] of stack.apps) {
    const pid = process.pid;
    if (pid === undefined || process.hasExited()) continue;
    try {
      const kilobytes = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
      if (kilobytes) samples.push({ app, pid, rssBytes: Number(kilobytes) * 1024, at: Date.now() });
    } catch {
      // exited meanwhile
    }
  }
  return samples;
}

export interface MemoryGrowth {
  app: AppName;
  startRssBytes?: number;
  endRssBytes?: number;
  /** The longest-lived process of the app: its growth over its own lifetime in the run. */
  longestLivedMs: number;
  longestLivedGrowthBytes: number;
}

// Start and end figures per app; growth is only meaningful within one process,
// so it is given for the process of the app that lived longest in the run.
export function memoryGrowth(samples: readonly MemorySample[]): MemoryGrowth[] {
  const apps = [...new Set(samples.map((sample) => sample.app))];
  return apps.map((app) => {
    const own = samples.filter((sample) => sample.app === app);
    const byPid = new Map<number, MemorySample[]>();
    for (const sample of own) byPid.set(sample.pid, [...(byPid.get(sample.pid) ?? []), sample]);
    let longestLivedMs = 0;
    let longestLivedGrowthBytes = 0;
    for (const series of byPid.values()) {
      const lived = series[series.length - 1].at - series[0].at;
      if (lived >= longestLivedMs) {
        longestLivedMs = lived;
        longestLivedGrowthBytes = series[series.length - 1].rssBytes - series[0].rssBytes;
      }
    }
    return {
      app,
      startRssBytes: own[0]?.rssBytes,
      endRssBytes: own[own.length - 1]?.rssBytes,
      longestLivedMs,
      longestLivedGrowthBytes,
    };
  });
}
