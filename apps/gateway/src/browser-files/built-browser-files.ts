import { readFileSync } from 'node:fs';
import path from 'node:path';

// The files a browser app's build leaves in dist/apps/<app>/ (the respondent
// page's script, the console's page and files): each asset named after its
// content (so browsers and proxies may keep it for a year) and listed in
// assets.json by its role; the console also has its page, index.html, which
// names them. Read once, at the first request that needs them.
export interface BrowserAsset {
  fileName: string;
  contentType: string;
  body: Buffer;
}

export interface BuiltBrowserFiles {
  /** The assets by their role in assets.json (`script`, `icon`, ...). */
  byRole: Record<string, BrowserAsset>;
  /** index.html, for an app that has a page of its own. */
  page?: Buffer;
}

export type BrowserApp = 'console' | 'respondent-web';

/**
 * Where the build puts an app's files: beside the gateway's own folder in
 * dist/apps, found by walking up from this code, which is at another depth in
 * the gateway's bundle (dist/apps/gateway/main.js) than compiled file by file.
 */
export const builtFilesDir = (app: BrowserApp) => path.join(appsFolder(__dirname), app);

function appsFolder(from: string): string {
  for (let dir = from; dir !== path.dirname(dir); dir = path.dirname(dir)) {
    if (path.basename(dir) === 'apps') return dir;
  }
  throw new Error(`no apps folder above ${from}`);
}

const contentTypes: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  // The console's texts in a language.
  '.json': 'application/json; charset=utf-8',
};

const loaded = new Map<BrowserApp, BuiltBrowserFiles>();

export function builtBrowserFiles(app: BrowserApp): BuiltBrowserFiles {
  let files = loaded.get(app);
  if (!files) {
    files = readBuiltFiles(builtFilesDir(app));
    loaded.set(app, files);
  }
  return files;
}

export function readBuiltFiles(dir: string): BuiltBrowserFiles {
  const listed = JSON.parse(readFileSync(path.join(dir, 'assets.json'), 'utf8')) as Record<string, string>;
  const byRole = Object.fromEntries(
    Object.entries(listed).map(([role, fileName]) => [
      role,
      {
        fileName,
        contentType: contentTypes[path.extname(fileName)] ?? 'application/octet-stream',
        body: readFileSync(path.join(dir, fileName)),
      },
    ]),
  );
  const pageFile = path.join(dir, 'index.html');
  let page: Buffer | undefined;
  try {
    page = readFileSync(pageFile);
  } catch {
    page = undefined;
  }
  return { byRole, page };
}

/** The asset of that name, if the build has one (an older build's name finds none). */
export function builtAsset(files: BuiltBrowserFiles, fileName: string): BrowserAsset | undefined {
  return Object.values(files.byRole).find((asset) => asset.fileName === fileName);
}

interface AssetReply {
  status(code: number): AssetReply;
  header(name: string, value: string): AssetReply;
  send(body?: string | Buffer): void;
}

// An asset is immutable (its name changes with its content), and what it is
// is said, never sniffed.
export function sendBuiltAsset(reply: AssetReply, asset: BrowserAsset): void {
  reply
    .status(200)
    .header('content-type', asset.contentType)
    .header('cache-control', 'public, max-age=31536000, immutable')
    .header('x-content-type-options', 'nosniff')
    // An SVG opened on its own is a document: it may run nothing and load nothing.
    .header('content-security-policy', "default-src 'none'")
    .send(asset.body);
}
