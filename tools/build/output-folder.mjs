// A build's output folder replaced file by file, never emptied first: each
// file is written beside its place and renamed over it (a rename is atomic),
// and what the build no longer makes goes at the end. A process starting from
// dist/ while a build runs (an app of `npm start`, an e2e spec's stack on
// another Jest worker) reads either the old file or the new one, never a
// missing or half-written one.
import { mkdirSync, readdirSync, renameSync, rmdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export class OutputFolder {
  // `dirs`: the folders this build owns; `others`: folders in them that
  // another step writes (a bundle), left alone.
  constructor(dirs, others = []) {
    this.dirs = dirs.map((dir) => path.resolve(dir));
    this.others = new Set(others.map((dir) => path.resolve(dir)));
    this.written = new Set();
  }

  write(file, content) {
    mkdirSync(path.dirname(file), { recursive: true });
    const temporary = `${file}.${process.pid}.tmp`;
    writeFileSync(temporary, content);
    renameSync(temporary, file);
    this.written.add(path.resolve(file));
  }

  // Everything in its folders this build did not write (stale outputs,
  // temporary files of a killed build), and the folders left empty.
  removeTheRest() {
    const sweep = (dir) => {
      if (this.others.has(dir)) return;
      let entries;
      try {
        entries = readdirSync(dir, { withFileTypes: true });
      } catch {
        return;
      }
      for (const entry of entries) {
        const full = path.join(dir, entry.name);
        if (entry.isDirectory()) {
          sweep(full);
          if (!this.others.has(full) && readdirSync(full).length === 0) rmdirSync(full);
        } else if (!this.written.has(full)) rmSync(full, { force: true });
      }
    };
    for (const dir of this.dirs) sweep(dir);
  }
}
