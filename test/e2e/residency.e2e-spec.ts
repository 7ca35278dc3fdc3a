import { randomUUID } from 'node:crypto';
import type { Region } from '@formline/contracts';
import { appNames } from '@formline/stack';
import {
  callApi,
  databaseUrl,
  findInDatabase,
  findInFiles,
  findInNatsStreams,
  findInRedis,
  type Finding,
  testInfra,
  useTestRegions,
} from '@formline/testing';

// Residency audit: after a mixed run on both regions (submissions,
// webhook deliveries, one submission sent to the wrong region's address), no
// EU response, delivery, job or payload is in any US database, queue, stream
// or log, and the reverse. Each region's own data is found in its own stores,
// so the search itself is proven to see what it looks for.
describe('data residency', () => {
  const { regions, receiver, accounts } = useTestRegions({
    receiver: true,
    accounts: { us: 'us', eu: 'eu' },
  });
  const perRegion = 15;
  const regionsList: Region[] = ['us', 'eu'];

  const needles: Record<Region, { tokens: string[]; markers: string[]; eventIds: string[] }> = {
    us: { tokens: [], markers: [], eventIds: [] },
    eu: { tokens: [], markers: [], eventIds: [] },
  };
  // Each region's first delivery is refused once: it goes on in a job of its
  // own, which Redis keeps (its id names the event) after it succeeds. A
  // first attempt that succeeds leaves nothing in Redis.
  const retried: Partial<Record<Region, string>> = {};

  beforeAll(async () => {
    for (const region of regionsList) {
      receiver.answer(`/${region}`, (request) => {
        if (retried[region] !== undefined) return { status: 200 };
        retried[region] = String(request.headers['webhook-id']);
        return { status: 500 };
      });
    }
    const forms: Partial<Record<Region, string>> = {};
    for (const region of regionsList) {
      const account = accounts[region];
      const base = regions.baseUrl(region);
      const form = await callApi(`${base}/forms`, {
        token: account.token,
        method: 'POST',
        body: { title: 'Residency', fields: [{ ref: 'said', title: 'Say', type: 'short_text' }] },
      });
      forms[region] = form.body.id as string;
      const hook = await callApi(`${base}/forms/${forms[region]}/webhooks/residency`, {
        token: account.token,
        method: 'PUT',
        body: { url: receiver.url(`/${region}`), enabled: true },
      });
      expect(hook.status).toBe(200);
    }
    // Interleaved, as a mixed load would arrive.
    for (let i = 0; i < perRegion; i++) {
      for (const region of regionsList) {
        const marker = `residency-${region}-${randomUUID()}`;
        needles[region].markers.push(marker);
        const response = await callApi(`${regions.baseUrl(region)}/forms/${forms[region]}/submissions`, {
          method: 'POST',
          body: { answers: [{ field: { ref: 'said' }, type: 'text', text: marker }] },
        });
        expect(response.status).toBe(201);
        needles[region].tokens.push(response.body.token as string);
      }
    }
    // An EU submission sent to the US address is redirected (307) to the EU
    // address before it is read; fetch follows it, so it is stored in the EU.
    const misdirected = `residency-eu-${randomUUID()}`;
    needles.eu.markers.push(misdirected);
    const wrong = await callApi(`${regions.baseUrl('us')}/forms/${forms.eu}/submissions`, {
      method: 'POST',
      body: { answers: [{ field: { ref: 'said' }, type: 'text', text: misdirected }] },
    });
    expect(wrong.status).toBe(201);
    // The EU receives the misdirected submission's delivery too, and each
    // region the refused one again: wait for every delivery, or the last one
    // races the search below.
    const deliveries: Record<Region, number> = { us: perRegion + 1, eu: perRegion + 2 };
    for (const region of regionsList) {
      const delivered = await receiver.until(
        `/${region}`,
        (requests) => requests.length >= deliveries[region],
        30_000,
      );
      needles[region].eventIds = [
        ...new Set(delivered.map((request) => String(request.headers['webhook-id']))),
      ];
    }
  }, 180_000);

  // Everything a region's stores hold, searched for the given needles.
  async function search(region: Region, wanted: readonly string[]): Promise<Finding[]> {
    const infra = testInfra();
    return [
      ...(await findInDatabase(databaseUrl(infra, `formline_responses_${region}`), wanted)),
      ...(await findInDatabase(databaseUrl(infra, `formline_webhooks_${region}`), wanted)),
      ...(await findInRedis(infra.redisUrl[region], wanted)),
      ...(await findInNatsStreams(infra.natsUrl[region], wanted)),
      ...findInFiles(
        appNames.map((app) => regions.logFile(region, app)),
        wanted,
      ),
    ];
  }

  const all = (region: Region) => [
    ...needles[region].tokens,
    ...needles[region].markers,
    ...needles[region].eventIds,
  ];

  it.each([
    ['us', 'eu'],
    ['eu', 'us'],
  ] as const)(
    "no %s response, delivery, job or payload in %s's databases, Redis, NATS or logs",
    async (home, other) => {
      const leaks = await search(other, all(home));
      expect(leaks).toEqual([]);
      // The same search finds the region's own data at home: it does look.
      const own = await search(home, all(home));
      const where = (store: string) => own.filter((finding) => finding.store.startsWith(store));
      const found = (predicate: (finding: Finding) => boolean, list: readonly string[]) =>
        list.filter((needle) => own.some((finding) => predicate(finding) && finding.needle === needle));
      expect(found((f) => f.store.endsWith(`formline_responses_${home}`), needles[home].tokens)).toHaveLength(
        perRegion,
      );
      const eventIds = needles[home].eventIds;
      expect(found((f) => f.store.endsWith(`formline_webhooks_${home}`), eventIds)).toEqual(eventIds);
      expect(found((f) => f.store.startsWith('redis'), [retried[home]!])).toEqual([retried[home]]);
      expect(
        found((f) => f.store.startsWith('nats'), needles[home].markers.slice(0, perRegion)),
      ).toHaveLength(perRegion);
      process.stdout.write(
        `residency ${home}: ${own.length} findings of its own data at home (${[
          'database',
          'redis',
          'nats',
          'log',
        ]
          .map((store) => `${store} ${where(store).length}`)
          .join(', ')}), none in ${other}\n`,
      );
    },
  );

  it('keeps responses out of the shared global database', async () => {
    const leaks = await findInDatabase(databaseUrl(testInfra(), 'formline_global'), [
      ...needles.us.tokens,
      ...needles.us.markers,
      ...needles.eu.tokens,
      ...needles.eu.markers,
    ]);
    expect(leaks).toEqual([]);
  });
});
