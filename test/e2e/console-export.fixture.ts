import type { BrowserContext, Page } from 'playwright-core';

// What the console's export specs do to the browser, each as a script run
// in every page before the console's own (Playwright's init scripts are not
// bound by the page's policy). Strings, not functions: the spec's compiler
// would otherwise rewrite them with helpers the page does not have.

// Headless Chromium has the File System Access API, but its save dialog
// answers "the user aborted" at once: without it, the console downloads the
// export when whole (Blob parts), which Playwright's download event takes.
export async function withoutSaveDialog(context: BrowserContext): Promise<void> {
  await context.addInitScript('delete window.showSaveFilePicker;');
}

// The save dialog "chooses" a file of the origin's private file system (a
// real FileSystemFileHandle, written through a real writable stream), which
// savedFile() then reads back.
export async function withSaveDialogToPrivateFiles(context: BrowserContext): Promise<void> {
  await context.addInitScript(`
    window.showSaveFilePicker = async (options) => {
      const dir = await navigator.storage.getDirectory();
      window.__savedName = options.suggestedName;
      return dir.getFileHandle(options.suggestedName, { create: true });
    };`);
}

export function savedFile(page: Page): Promise<{ name: string; text: string }> {
  return page.evaluate<{ name: string; text: string }>(`(async () => {
    const dir = await navigator.storage.getDirectory();
    const file = await (await dir.getFileHandle(window.__savedName)).getFile();
    return { name: window.__savedName, text: await file.text() };
  })()`);
}

// The page's fetch, for the export and files routes only, passes the
// server's stream on in pieces of `piece` bytes, `delayMs` apart (so the
// progress shows and a cancel comes mid-way), and once, when `breakAt` is
// set, cuts it after that many bytes as a broken connection does (the
// reader fails with a TypeError). The addresses the console asked for are
// kept in window.__exportAddresses.
export async function withShapedExportStreams(context: BrowserContext): Promise<void> {
  await context.addInitScript(`
    (() => {
      const realFetch = window.fetch.bind(window);
      window.__exportAddresses = [];
      window.fetch = async (input, init) => {
        const response = await realFetch(input, init);
        const address = String(input);
        if (!/\\/responses\\/(export|files)\\b/.test(address) || !response.body) return response;
        window.__exportAddresses.push(address);
        const shape = window.__exportShape;
        if (!shape) return response;
        const reader = response.body.getReader();
        const signal = init && init.signal;
        let sent = 0;
        let pieces = [];
        const body = new ReadableStream({
          start(controller) {
            signal && signal.addEventListener('abort', () => {
              try { controller.error(new DOMException('The export was cancelled', 'AbortError')); } catch {}
            });
          },
          async pull(controller) {
            while (pieces.length === 0) {
              const { done, value } = await reader.read();
              if (done) return controller.close();
              for (let at = 0; at < value.length; at += shape.piece) pieces.push(value.slice(at, at + shape.piece));
            }
            await new Promise((resolve) => setTimeout(resolve, shape.delayMs));
            if (signal && signal.aborted) return;
            let piece = pieces.shift();
            if (shape.breakAt !== undefined && sent + piece.length >= shape.breakAt) {
              piece = piece.slice(0, shape.breakAt - sent);
              shape.breakAt = undefined;
              if (piece.length > 0) controller.enqueue(piece);
              reader.cancel().catch(() => {});
              return controller.error(new TypeError('network error'));
            }
            sent += piece.length;
            controller.enqueue(piece);
          },
          cancel() { return reader.cancel(); },
        });
        return new Response(body, { status: response.status, headers: response.headers });
      };
    })();`);
}

/** How the next export streams: pieces, pace, and where it breaks once. */
export async function shapeExports(
  page: Page,
  shape: { piece: number; delayMs: number; breakAt?: number } | undefined,
): Promise<void> {
  await page.evaluate(`window.__exportShape = ${JSON.stringify(shape ?? null) || 'null'};`);
}

export function exportAddresses(page: Page): Promise<string[]> {
  return page.evaluate<string[]>('window.__exportAddresses');
}

// The entries of a tar archive: name and bytes (ustar, as the API writes it;
// a pax header's path names the entry after it).
export function tarEntries(archive: Buffer): Array<{ name: string; body: Buffer }> {
  const entries: Array<{ name: string; body: Buffer }> = [];
  let longName: string | undefined;
  for (let at = 0; at + 512 <= archive.length;) {
    const header = archive.subarray(at, at + 512);
    if (header.every((byte) => byte === 0)) break;
    const size = parseInt(untilNul(header.subarray(124, 136)), 8);
    const type = String.fromCharCode(header[156]);
    const body = archive.subarray(at + 512, at + 512 + size);
    if (type === 'x') longName = /path=([^\n]*)\n/.exec(body.toString('utf8'))?.[1];
    else {
      entries.push({
        name: longName ?? untilNul(header.subarray(0, 100)),
        body,
      });
      longName = undefined;
    }
    at += 512 + Math.ceil(size / 512) * 512;
  }
  return entries;
}

// A header field: its text up to its first NUL.
function untilNul(field: Buffer): string {
  const end = field.indexOf(0);
  return field.subarray(0, end === -1 ? field.length : end).toString('utf8');
}
