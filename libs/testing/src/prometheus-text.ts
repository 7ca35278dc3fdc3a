// Reads the Prometheus text format an app serves on /metrics, enough to find
// a series by name and labels and read its value.

export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export function parsePrometheusText(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)/.exec(line);
    if (!match) continue;
    const labels: Record<string, string> = {};
    for (const [, key, value] of (match[2] ?? '').matchAll(/(?<!\w)(\w+)="((?:[^"\\]|\\.)*)"/g))
      labels[key] = value;
    samples.push({ name: match[1], labels, value: Number(match[3]) });
  }
  return samples;
}

// The sum of the series of that name whose labels include `labels` (0 if none).
export function sampleValue(samples: Sample[], name: string, labels: Record<string, string> = {}): number {
  return samples
    .filter(
      (sample) =>
        sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value),
    )
    .reduce((sum, sample) => sum + sample.value, 0);
}

export async function scrapeMetrics(
  opsPort: number,
): Promise<{ text: string; samples: Sample[]; contentType: string }> {
  const response = await fetch(`http://127.0.0.1:${opsPort}/metrics`);
  const text = await response.text();
  if (response.status !== 200) throw new Error(`/metrics answered ${response.status}`);
  return {
    text,
    samples: parsePrometheusText(text),
    contentType: response.headers.get('content-type') ?? '',
  };
}
