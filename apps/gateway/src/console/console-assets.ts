import { readFileSync } from 'node:fs';
import path from 'node:path';

// The console's browser files, as apps/console's build leaves them in
// dist/apps/console/: its page (index.html, which names the others), and its
// script, style and icon, each named after its content (so browsers and
// proxies may keep them for a year), listed in assets.json. Read once, at
// the first request.
export interface ConsoleAsset {
  fileName: string;
  contentType: string;
  body: Buffer;
}

export interface ConsoleFiles {
  page: Buffer;
  assets: ConsoleAsset[];
}

/** Where the build puts them, beside the gateway's own compiled code in dist/. */
export const consoleFilesDir = path.resolve(__dirname, '../../../console');

const contentTypes: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
};

let loaded: ConsoleFiles | undefined;

export function consoleFiles(dir = consoleFilesDir): ConsoleFiles {
  if (dir !== consoleFilesDir) return readFiles(dir);
  loaded ??= readFiles(dir);
  return loaded;
}

function readFiles(dir: string): ConsoleFiles {
  const listed = JSON.parse(readFileSync(path.join(dir, 'assets.json'), 'utf8')) as Record<string, string>;
  const assets = Object.values(listed).map((fileName) => ({
    fileName,
    contentType: contentTypes[path.extname(fileName)] ?? 'application/octet-stream',
    body: readFileSync(path.join(dir, fileName)),
  }));
  return { page: readFileSync(path.join(dir, 'index.html')), assets };
}

/** The asset of that name, if the console has one (an older build's name finds none). */
export function consoleAsset(files: ConsoleFiles, fileName: string): ConsoleAsset | undefined {
  return files.assets.find((asset) => asset.fileName === fileName);
}
