import type { RegionStackSettings } from '@formline/stack';

// Every port `npm start` gives out, named by what listens on it: each
// region's base address, its media app and one ops port per app. The ops
// ports count up from a base per region, so a region with more apps than the
// distance between the bases would listen where the next one does; this
// names every port given twice before anything starts.
export function portClashes(regions: readonly RegionStackSettings[]): string[] {
  const users = new Map<number, string[]>();
  const use = (port: number, name: string) => users.set(port, [...(users.get(port) ?? []), name]);
  for (const region of regions) {
    use(region.httpPort, `${region.region} gateway (HTTP)`);
    use(region.mediaPort, `${region.region} media (HTTP)`);
    for (const [app, port] of Object.entries(region.opsPorts)) use(port, `${region.region} ${app} (ops)`);
  }
  return [...users]
    .filter(([, names]) => names.length > 1)
    .map(([port, names]) => `port ${port}: ${names.join(', ')}`);
}
