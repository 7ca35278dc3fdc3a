import { appNames, type AppName, type RegionStackSettings } from '@formline/stack';
import { portClashes } from './port-clashes';

function region(
  name: 'us' | 'eu',
  httpPort: number,
  mediaPort: number,
  opsBase: number,
): RegionStackSettings {
  const opsPorts = Object.fromEntries(appNames.map((app, i) => [app, opsBase + i])) as Record<
    AppName,
    number
  >;
  return { region: name, httpPort, mediaPort, opsPorts } as RegionStackSettings;
}

describe('portClashes', () => {
  it('finds none when each listener has a port of its own', () => {
    expect(portClashes([region('us', 3000, 3050, 3100), region('eu', 3001, 3051, 3200)])).toEqual([]);
  });

  it("names the ports of two regions whose ops ranges overlap by one app's worth", () => {
    const [clash] = portClashes([
      region('us', 3000, 3050, 3100),
      region('eu', 3001, 3051, 3100 + appNames.length - 1),
    ]);
    expect(clash).toBe(
      `port ${3100 + appNames.length - 1}: us ${appNames.at(-1)} (ops), eu ${appNames[0]} (ops)`,
    );
  });

  it('names an HTTP port given to an ops port too', () => {
    expect(portClashes([region('us', 3000, 3050, 3000), region('eu', 3001, 3051, 3200)])).toEqual([
      `port 3000: us gateway (HTTP), us ${appNames[0]} (ops)`,
      `port 3001: us ${appNames[1]} (ops), eu gateway (HTTP)`,
    ]);
  });
});
