import { mkdtempSync, openSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { bufferedStdout } from './log-destination';

async function until(check: () => boolean, timeoutMs = 2000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('bufferedStdout', () => {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'log-destination-')), 'out.log');
  const content = () => readFileSync(file, 'utf8');

  it('gathers short lines into one write, and still shows a quiet line within its flush interval', async () => {
    const fd = openSync(file, 'w');
    const flushEveryMs = 100;
    const stream = bufferedStdout({ fd, bufferBytes: 4096, flushEveryMs });
    const start = Date.now();
    stream.write('first\n');
    stream.write('second\n');
    // Buffered: under 4 KB nothing is written before the timer. A loaded machine
    // may stall this test past the interval; then there is nothing to check here.
    await new Promise((resolve) => setTimeout(resolve, 20));
    if (Date.now() - start < flushEveryMs) expect(content()).toBe('');
    // The timer writes what a quiet process left in the buffer.
    await until(() => content() === 'first\nsecond\n');
    await stream.close();
  });

  it('writes a batch once it holds bufferBytes, in the order the lines came', async () => {
    const fd = openSync(file, 'w');
    const stream = bufferedStdout({ fd, bufferBytes: 64, flushEveryMs: 60_000 });
    const lines = Array.from({ length: 10 }, (_, i) => `line ${i} ${'x'.repeat(20)}\n`);
    for (const line of lines.slice(0, 2)) stream.write(line);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(content()).toBe('');
    for (const line of lines.slice(2)) stream.write(line);
    // Lines of 28 characters: a batch every third line; the tenth waits.
    await until(() => content() === lines.slice(0, 9).join(''));
    // The tenth line goes out without the timer: written by flushSync, or by the
    // writer's own thread when a batch was still under way there.
    stream.flushSync();
    await until(() => content() === lines.join(''));
    await stream.close();
  });
});
