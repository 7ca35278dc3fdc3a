import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(__dirname, '..');

// A clone of the repository must explain itself: no code, comment, test name,
// schema or doc may send its reader to a document the repository does not
// hold (the developers' own notes beside the checkout). Say the rule instead,
// or point inside: docs/architecture.md for the services and the region rules,
// docs/decisions/ for the choices.
//
// Those notes' names are upper case words ("SPEC 2.1", "STYLE rule 3",
// "DESIGN.md"), so ordinary words pass.
const outsidePointers: readonly RegExp[] = [/\b(SPEC|STYLE|DESIGN)\b/, /\.\.\/shared(?![\w-])/];

// Files nobody reads as prose: recorded figures, the lockfile, pictures.
const notProse = (file: string): boolean =>
  file.startsWith('bench/results/') ||
  file === 'package-lock.json' ||
  /\.(png|jpe?g|gif|ico|webp)$/.test(file);

describe('the repository', () => {
  it('points at no document outside itself', () => {
    const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], {
      cwd: root,
      encoding: 'utf8',
    })
      .split('\n')
      .filter((file) => file !== '' && !notProse(file) && file !== 'tools/no-outside-pointers.spec.ts');
    const pointing = files.flatMap((file) => {
      let text: string;
      try {
        text = readFileSync(path.join(root, file), 'utf8');
      } catch {
        return []; // listed but gone from the work tree (deleted, not yet committed)
      }
      return text
        .split('\n')
        .flatMap((line, index) =>
          outsidePointers.some((pattern) => pattern.test(line))
            ? [`${file}:${index + 1}: ${line.trim()}`]
            : [],
        );
    });
    expect(pointing).toEqual([]);
  });
});
