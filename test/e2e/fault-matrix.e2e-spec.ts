import { appNames } from '@formline/stack';
import { formatFaultMatrixReport, type FaultMatrixReport, runFaultMatrix } from '@formline/testing';

// The fault matrix: while anonymous submissions stream in at a
// steady rate to a US form with an enabled webhook, each of the region's five
// apps is killed with SIGKILL and relaunched, and PostgreSQL, NATS and Redis
// crash and start again, in turn. Clients retry with the same Idempotency-Key.
// Afterwards every accepted submission is stored once and delivered at least
// once, duplicates stay under 1%, and every app recovered by itself.
// `npm run soak` runs the same for longer. Its setup is runFaultMatrix's
// (libs/testing), which the soak shares: it crashes the shared PostgreSQL
// and runs on servers of its own, which the shared fixture does not.
describe('fault matrix', () => {
  let report: FaultMatrixReport;

  beforeAll(async () => {
    report = await runFaultMatrix({
      name: 'fault-matrix',
      ratePerSecond: 3,
      downMs: 3000,
      pauseMs: 2000,
      rounds: 1,
      log: (line) => process.stdout.write(`fault matrix: ${line}\n`),
    });
    process.stdout.write(`fault matrix figures:\n${formatFaultMatrixReport(report)}\n`);
  }, 1_200_000);

  it('loses nothing: every accepted submission stored once and delivered', () => {
    const { audit, stream } = report;
    expect(stream.accepted).toBeGreaterThan(0);
    expect(stream.refused).toBe(0);
    expect(stream.pending).toBe(0);
    expect(audit.accepted).toBe(stream.sent);
    expect(audit.lostTokens).toEqual([]);
    expect(audit.stored).toBe(audit.accepted);
    expect(audit.storedTwice).toBe(0);
    expect(audit.storedUnannounced).toBe(0);
    expect(audit.delivered).toBe(audit.accepted);
    expect(audit.duplicateRatePercent).toBeLessThan(1);
    expect(report.settled).toBe(true);
  });

  it('answers a missing dependency with 503 and Retry-After, never 500', () => {
    expect(report.stream.answers['500']).toBeUndefined();
    expect(report.stream.unavailableWithoutRetryAfter).toBe(0);
  });

  it('recovers from every fault without a manual step, readiness false while a server is away', () => {
    // kill -9 of each app of the region, then each of the three servers.
    expect(report.faults).toHaveLength(appNames.length + 3);
    for (const fault of report.faults) {
      expect({ fault: fault.name, recovered: fault.recoveredMs !== undefined }).toEqual({
        fault: fault.name,
        recovered: true,
      });
    }
    const notReady = Object.fromEntries(report.faults.map((fault) => [fault.name, fault.notReady]));
    expect(notReady).toMatchObject({
      'PostgreSQL restart (pg_ctl stop -m fast, then start)': expect.arrayContaining([
        'dispatcher',
        'global',
        'responses',
        'webhooks',
      ]),
      'NATS kill -9 and start': expect.arrayContaining([
        'gateway',
        'global',
        'media',
        'responses',
        'webhooks',
      ]),
      'Redis kill -9 and start (append-only file kept)': expect.arrayContaining(['dispatcher', 'webhooks']),
    });
  });
});
