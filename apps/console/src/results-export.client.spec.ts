import { ApiError } from './api.client';
import { type ExportSink, runExport } from './results-export.client';
import { ExportRows } from './results-export-rows.mapper';

const encoder = new TextEncoder();
const lines = ['{"token":"t1"}\n', '{"token":"t2"}\n', '{"token":"t3"}\n'];

// A stream of `text` in chunks of `size` bytes that fails (as a cut connection does) after `breakAt` bytes.
function streamOf(text: string, size: number, breakAt?: number): ReadableStream<Uint8Array> {
  const bytes = encoder.encode(text);
  let at = 0;
  return new ReadableStream({
    pull(controller) {
      if (breakAt !== undefined && at >= breakAt) return controller.error(new TypeError('network error'));
      if (at >= bytes.length) return controller.close();
      const end = Math.min(at + size, bytes.length, breakAt ?? Infinity);
      controller.enqueue(bytes.slice(at, end));
      at = end;
    },
  });
}

function memorySink() {
  const parts: Uint8Array[] = [];
  const sink: ExportSink & { text: () => string; closed?: string; aborted: boolean } = {
    where: 'download',
    aborted: false,
    write: (part) => {
      parts.push(part.slice());
      return Promise.resolve();
    },
    close: (fileName) => {
      sink.closed = fileName;
      return Promise.resolve();
    },
    abort: () => {
      sink.aborted = true;
      return Promise.resolve();
    },
    text: () => parts.map((part) => new TextDecoder().decode(part)).join(''),
  };
  return sink;
}

describe("an export's reading, resuming and saving", () => {
  beforeEach(() => jest.useFakeTimers({ doNotFake: ['queueMicrotask'] }));
  afterEach(() => jest.useRealTimers());

  it('resumes a stream cut inside a row after the last whole row, and saves each row once', async () => {
    const asked: Array<string | undefined> = [];
    const sink = memorySink();
    const progress: number[] = [];
    const running = runExport({
      open: (after) => {
        asked.push(after);
        // The first stream breaks in the middle of the second line; the API resumes after t1.
        const body =
          after === undefined ? streamOf(lines.join(''), 4, 20) : streamOf(lines.slice(1).join(''), 4);
        return Promise.resolve({ body, fileName: 'f-responses.jsonl' });
      },
      rows: new ExportRows('jsonl'),
      sink,
      signal: new AbortController().signal,
      onProgress: (p) => progress.push(p.resumes),
    });
    await jest.runAllTimersAsync();
    await expect(running).resolves.toEqual({
      rows: 3,
      bytes: 20 + 30,
      resumes: 1,
      fileName: 'f-responses.jsonl',
    });
    expect(asked).toEqual([undefined, 't1']);
    expect(sink.text()).toBe(lines.join(''));
    expect(sink.closed).toBe('f-responses.jsonl');
    expect(progress).toContain(1);
  });

  it('gives up after three breaks without a new row, and drops what it wrote', async () => {
    const sink = memorySink();
    const running = runExport({
      open: () => Promise.resolve({ body: streamOf(lines.join(''), 4, 3), fileName: 'f.jsonl' }),
      rows: new ExportRows('jsonl'),
      sink,
      signal: new AbortController().signal,
      onProgress: () => undefined,
    });
    const failed = expect(running).rejects.toMatchObject({ code: 'EXPORT_BROKEN' });
    await jest.runAllTimersAsync();
    await failed;
    expect(sink.aborted).toBe(true);
  });

  it('asks again when a resume finds the service away for a moment (503)', async () => {
    const sink = memorySink();
    const answers = [
      () => Promise.resolve({ body: streamOf(lines.join(''), 4, 20), fileName: 'f.jsonl' }),
      () => Promise.reject(new ApiError(503, 'SERVICE_UNAVAILABLE', 'A dependency is away.')),
      () => Promise.resolve({ body: streamOf(lines.slice(1).join(''), 4), fileName: 'f.jsonl' }),
    ];
    const asked: Array<string | undefined> = [];
    const running = runExport({
      open: (after) => {
        asked.push(after);
        return answers[asked.length - 1]();
      },
      rows: new ExportRows('jsonl'),
      sink,
      signal: new AbortController().signal,
      onProgress: () => undefined,
    });
    await jest.runAllTimersAsync();
    await expect(running).resolves.toMatchObject({ rows: 3, resumes: 2 });
    expect(asked).toEqual([undefined, 't1', 't1']);
    expect(sink.text()).toBe(lines.join(''));
  });

  it("passes on the API's refusal as it is (a 503 before anything came too), and does not resume a files archive", async () => {
    const refused = new ApiError(400, 'VALIDATION_ERROR', 'after names no response of this form.');
    const sink = memorySink();
    const away = new ApiError(503, 'SERVICE_UNAVAILABLE', 'A dependency is away.');
    await expect(
      runExport({
        open: () => Promise.reject(away),
        rows: new ExportRows('csv'),
        sink,
        signal: new AbortController().signal,
        onProgress: () => undefined,
      }),
    ).rejects.toBe(away);
    await expect(
      runExport({
        open: () => Promise.reject(refused),
        rows: new ExportRows('csv'),
        sink,
        signal: new AbortController().signal,
        onProgress: () => undefined,
      }),
    ).rejects.toBe(refused);
    await expect(
      runExport({
        open: () => Promise.resolve({ body: streamOf('tar bytes', 2, 4), fileName: 'f-files.tar' }),
        sink,
        signal: new AbortController().signal,
        onProgress: () => undefined,
      }),
    ).rejects.toMatchObject({ code: 'DOWNLOAD_BROKEN' });
  });

  it('stops when cancelled, saving nothing', async () => {
    const cancel = new AbortController();
    const sink = memorySink();
    const running = runExport({
      open: () => {
        cancel.abort();
        return Promise.reject(new DOMException('Cancelled', 'AbortError'));
      },
      rows: new ExportRows('csv'),
      sink,
      signal: cancel.signal,
      onProgress: () => undefined,
    });
    await expect(running).rejects.toMatchObject({ name: 'AbortError' });
    expect(sink.aborted).toBe(true);
    expect(sink.closed).toBeUndefined();
  });
});
