import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import path from 'node:path';

// Loaded into each app with NODE_OPTIONS=--require (where --cpu-prof is not
// allowed) when BENCH_CPU_PROF is set: profiles the whole life of the process
// and writes <app pid>.cpuprofile into that folder when it exits. The
// in-thread inspector answers synchronously, so this works in an exit handler.
const dir = process.env.BENCH_CPU_PROF;
if (dir) {
  const session = new Session();
  session.connect();
  session.post('Profiler.enable');
  session.post('Profiler.start');
  process.on('exit', () => {
    session.post('Profiler.stop', (error, result) => {
      if (!error) {
        const name = `${path.basename(path.dirname(path.dirname(process.argv[1] ?? 'app')))}-${process.pid}.cpuprofile`;
        writeFileSync(path.join(dir, name), JSON.stringify(result.profile));
      }
    });
  });
}
