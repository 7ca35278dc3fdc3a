import { existsSync } from 'node:fs';
import path from 'node:path';

// The checkout's root, from the sources (under Jest) and from dist/ (tools
// such as `npm run soak` run the compiled harness): the nearest folder up
// that holds scripts/infra.sh.
export function repositoryRoot(): string {
  for (let dir = __dirname; ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, 'scripts', 'infra.sh'))) return dir;
    if (path.dirname(dir) === dir) throw new Error(`no repository root above ${__dirname}`);
  }
}
