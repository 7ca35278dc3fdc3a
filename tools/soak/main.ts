import { parseArgs } from 'node:util';
import { formatFaultMatrixReport, runFaultMatrix } from '@formline/testing';

// `npm run soak`: the fault matrix of the e2e tests, for longer. Submissions
// stream in at a steady rate while the US region's five apps are killed with
// SIGKILL and relaunched, and PostgreSQL, NATS and Redis crash and come back,
// in turn, again and again until the time is up. Prints what the clients saw,
// what was stored and delivered, and each app's memory at start and end.
// scripts/soak.sh starts the test profile's servers first.
//
//   npm run soak -- [--minutes 10] [--rate 10] [--down-seconds 3] [--pause-seconds 5]

const { values } = parseArgs({
  options: {
    minutes: { type: 'string', default: '10' },
    rate: { type: 'string', default: '10' },
    'down-seconds': { type: 'string', default: '3' },
    'pause-seconds': { type: 'string', default: '5' },
  },
});

function positive(name: string, value: string): number {
  const number = Number(value);
  if (!Number.isFinite(number) || number <= 0)
    throw new Error(`--${name} must be a positive number, not ${value}`);
  return number;
}

async function main(): Promise<void> {
  const minutes = positive('minutes', values.minutes);
  const rate = positive('rate', values.rate);
  const started = new Date();
  process.stdout.write(
    `soak: ${minutes} min at ${rate} submissions/s, faults in turn (started ${started.toISOString()})\n`,
  );
  const report = await runFaultMatrix({
    name: 'soak',
    ratePerSecond: rate,
    downMs: positive('down-seconds', values['down-seconds']) * 1000,
    pauseMs: positive('pause-seconds', values['pause-seconds']) * 1000,
    durationMs: minutes * 60_000,
    log: (line) => process.stdout.write(`soak: ${line}\n`),
  });
  process.stdout.write(`\nsoak figures (${minutes} min at ${rate}/s):\n${formatFaultMatrixReport(report)}\n`);
  const { audit, stream } = report;
  const failures = [
    audit.lost > 0 && `${audit.lost} accepted submissions lost`,
    audit.storedTwice > 0 && `${audit.storedTwice} submissions stored twice`,
    audit.duplicateRatePercent >= 1 && `duplicates at ${audit.duplicateRatePercent}%`,
    stream.answers['500'] && `${stream.answers['500']} answers of 500`,
    report.faults.some((fault) => fault.recoveredMs === undefined) && 'an app did not recover',
    !report.settled && 'clients or deliveries did not settle in time',
  ].filter(Boolean);
  if (failures.length > 0) {
    process.stdout.write(`soak FAILED: ${failures.join('; ')}\n`);
    process.exit(1);
  }
  process.stdout.write('soak passed: nothing lost\n');
  process.exit(0);
}

main().catch((error: unknown) => {
  process.stderr.write(
    `soak failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exit(1);
});
