import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { BrowserContext } from 'playwright-core';

// A real browser for end-to-end tests of pages: Debian's chromium (installed
// from the OS packages when missing, as scripts/infra.sh installs the
// servers), driven by playwright-core, which downloads nothing. The flags keep
// it from calling home: this network refuses every connection but ours.
const chromiumPath = '/usr/bin/chromium';

const flags = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export function ensureChromium(): string {
  if (existsSync(chromiumPath)) return chromiumPath;
  if (process.getuid?.() !== 0) {
    throw new Error("The browser tests need Debian's chromium: sudo apt-get install -y chromium");
  }
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  execFileSync('apt-get', ['update', '-qq'], { env, stdio: 'ignore' });
  execFileSync('apt-get', ['install', '-y', '-qq', 'chromium'], { env, stdio: 'ignore' });
  return chromiumPath;
}

export interface HeadlessBrowser {
  /** A fresh profile (no storage, no cache) each time. */
  newContext(options?: {
    viewport?: { width: number; height: number };
    isMobile?: boolean;
    /** A fake camera and microphone, granted without asking (for pages that record). */
    fakeMedia?: boolean;
    /** The browser's language (`navigator.language`), e.g. `es-ES`; the machine's otherwise. */
    locale?: string;
  }): Promise<BrowserContext>;
  close(): Promise<void>;
}

export function launchHeadlessBrowser(): HeadlessBrowser {
  const executablePath = ensureChromium();
  const contexts: { context: BrowserContext; dir: string }[] = [];
  return {
    newContext: async (options = {}) => {
      const dir = mkdtempSync(path.join(tmpdir(), 'formline-chromium-'));
      // Loaded here, not with the harness: it takes most of a second, which
      // every spec without a browser would pay.
      const { chromium } = await import('playwright-core');
      const context = await chromium.launchPersistentContext(dir, {
        executablePath,
        headless: true,
        args: options.fakeMedia
          ? [...flags, '--use-fake-device-for-media-stream', '--use-fake-ui-for-media-stream']
          : flags,
        viewport: options.viewport ?? { width: 1280, height: 800 },
        isMobile: options.isMobile,
        hasTouch: options.isMobile,
        locale: options.locale,
      });
      contexts.push({ context, dir });
      return context;
    },
    close: async () => {
      for (const { context, dir } of contexts) {
        await context.close().catch(() => undefined);
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

// Where tests leave what a person should look at (screenshots): .data/test/artifacts.
export function testArtifactPath(dataDir: string, name: string): string {
  const dir = path.join(dataDir, 'artifacts');
  mkdirSync(dir, { recursive: true });
  return path.join(dir, name);
}
