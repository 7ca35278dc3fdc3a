import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';

// The page's script: the bundle tools/build.mjs writes beside this file (the
// respondent page's client code with libs/form-logic), named after its content
// so browsers and proxies may keep it for a year.
export interface PageScript {
  fileName: string;
  body: string;
}

let loaded: PageScript | undefined;

export function pageScript(): PageScript {
  if (!loaded) {
    const body = readFileSync(path.join(__dirname, 'respondent-page.bundle.js'), 'utf8');
    const hash = createHash('sha256').update(body).digest('hex').slice(0, 16);
    loaded = { fileName: `respondent-page.${hash}.js`, body };
  }
  return loaded;
}
