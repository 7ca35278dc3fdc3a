import { readFileSync } from 'node:fs';
import path from 'node:path';

// The respondent page's browser files, as apps/respondent-web's build leaves
// them in dist/apps/respondent-web/: its script and its icon, each named
// after its content (so browsers and proxies may keep them for a year), listed
// in assets.json. Read once, at the first page served.
export interface PageAsset {
  fileName: string;
  contentType: string;
  body: Buffer;
}

export interface PageAssets {
  script: PageAsset;
  icon: PageAsset;
}

/** Where the build puts them, beside the gateway's own compiled code in dist/. */
export const pageAssetsDir = path.resolve(__dirname, '../../../respondent-web');

const contentTypes: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.svg': 'image/svg+xml',
};

let loaded: PageAssets | undefined;

export function pageAssets(dir = pageAssetsDir): PageAssets {
  if (dir !== pageAssetsDir) return readAssets(dir);
  loaded ??= readAssets(dir);
  return loaded;
}

function readAssets(dir: string): PageAssets {
  const listed = JSON.parse(readFileSync(path.join(dir, 'assets.json'), 'utf8')) as Record<
    'script' | 'icon',
    string
  >;
  const asset = (fileName: string): PageAsset => ({
    fileName,
    contentType: contentTypes[path.extname(fileName)],
    body: readFileSync(path.join(dir, fileName)),
  });
  return { script: asset(listed.script), icon: asset(listed.icon) };
}

/** The asset of that name, if the page has one (an older script's name finds none). */
export function pageAsset(assets: PageAssets, fileName: string): PageAsset | undefined {
  return [assets.script, assets.icon].find((asset) => asset.fileName === fileName);
}
