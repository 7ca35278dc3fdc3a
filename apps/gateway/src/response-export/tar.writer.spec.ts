import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { tarEnd, tarEntry } from './tar.writer';

describe('tar writer', () => {
  it('writes entries the system tar reads back, long names included', () => {
    const longName = `${'a'.repeat(32)}/${'f'.repeat(20)}/${'x'.repeat(16)}-${'n'.repeat(95)}.pdf`;
    const files: Array<[string, Buffer]> = [
      ['t1/f1/short.txt', Buffer.from('hello\n')],
      [longName, Buffer.alloc(1500, 7)],
      ['t2/f1/empty.bin', Buffer.alloc(0)],
    ];
    const at = new Date('2026-11-27T07:00:00Z');
    const archive = Buffer.concat([...files.flatMap(([name, body]) => tarEntry(name, body, at)), tarEnd()]);
    expect(archive.length % 512).toBe(0);
    const dir = mkdtempSync(path.join(tmpdir(), 'tar-writer-'));
    writeFileSync(path.join(dir, 'a.tar'), archive);
    const listed = execFileSync('tar', ['-tf', 'a.tar'], { cwd: dir, encoding: 'utf8' }).trim().split('\n');
    expect(listed).toEqual(files.map(([name]) => name));
    execFileSync('tar', ['-xf', 'a.tar'], { cwd: dir });
    for (const [name, body] of files) expect(readFileSync(path.join(dir, name)).equals(body)).toBe(true);
  });
});
