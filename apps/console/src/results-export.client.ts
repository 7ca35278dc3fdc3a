import { ApiError } from './api.client';
import type { ExportRows } from './results-export-rows.mapper';

// An export read from the API as it streams, written where it goes as it
// arrives, and resumed where it broke. An export of a million responses is
// hundreds of megabytes: it is never one string, nor one array of bytes.
// Where the browser lets a page write a file (the File System Access API's
// showSaveFilePicker), each whole row goes to the file the owner chose as it
// comes; elsewhere, the rows are gathered as Blob parts (which the browser
// may keep on disk), and the whole is offered as a download at the end.

export interface ExportProgress {
  /** Whole responses so far (none for a files archive, which is not rows). */
  rows?: number;
  bytes: number;
  /** Times the stream broke and was resumed. */
  resumes: number;
}

export interface ExportSink {
  /** Where the export lands: a file being written, or a download at the end. */
  readonly where: 'file' | 'download';
  write(part: Uint8Array): Promise<void>;
  /** The export is whole: the file is closed, or the download offered under `fileName`. */
  close(fileName: string): Promise<void>;
  /** Cancelled or failed: what was written goes. */
  abort(): Promise<void>;
}

type Opened = { body: ReadableStream<Uint8Array>; fileName: string };

// A break with no new whole row since the last one, this many times running, ends the export.
const maxBreaksInARow = 3;
const progressEveryMs = 250;

/**
 * Reads the export `open` opens (again, with `after`, when it broke), hands
 * its whole rows to `sink`, and tells progress as it goes. A files archive
 * has no `rows` and is not resumed: a break fails it, in words.
 */
export async function runExport(options: {
  open: (after: string | undefined) => Promise<Opened>;
  rows?: ExportRows;
  sink: ExportSink;
  signal: AbortSignal;
  onProgress: (progress: ExportProgress) => void;
}): Promise<ExportProgress & { fileName: string }> {
  const { open, rows, sink, signal, onProgress } = options;
  const progress: ExportProgress = { rows: rows?.rows, bytes: 0, resumes: 0 };
  let breaks = 0;
  let toldAt = 0;
  const tell = (now = false) => {
    progress.rows = rows?.rows;
    if (!now && Date.now() - toldAt < progressEveryMs) return;
    toldAt = Date.now();
    onProgress({ ...progress });
  };
  try {
    for (;;) {
      const rowsBefore = rows?.rows ?? 0;
      let reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
      try {
        const opened = await open(rows?.resumeAfter);
        reader = opened.body.getReader();
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          progress.bytes += value.length;
          for (const part of rows ? rows.push(value) : [value]) await sink.write(part);
          tell();
        }
        for (const part of rows?.end() ?? []) await sink.write(part);
        await sink.close(opened.fileName);
        tell(true);
        return { ...progress, fileName: opened.fileName };
      } catch (error) {
        if (signal.aborted) throw error;
        if (!isBreak(error, progress.resumes > 0)) throw error;
        if (!rows) throw archiveBrokenError(progress.bytes);
        breaks = (rows.rows > rowsBefore ? 0 : breaks) + 1;
        if (breaks >= maxBreaksInARow) throw brokenError(breaks);
        reader?.cancel().catch(() => undefined);
        rows.restart();
        progress.resumes += 1;
        tell(true);
        // A connection that broke may break again at once: a moment before asking again.
        await new Promise((resolve) => setTimeout(resolve, 500 * breaks));
        if (signal.aborted) throw new DOMException('Cancelled', 'AbortError');
      }
    }
  } catch (error) {
    await sink.abort().catch(() => undefined);
    throw error;
  }
}

// A stream cut mid-way (the browser's TypeError) or a server not reached;
// on resuming, also a server that asks to be retried (503: a dependency is
// away, which is often why the stream broke). Not the API's refusal.
function isBreak(error: unknown, resuming: boolean): boolean {
  if (error instanceof TypeError) return true;
  if (!(error instanceof ApiError)) return false;
  return error.code === 'NETWORK' || (resuming && error.status === 503);
}

function brokenError(breaks: number): ApiError {
  return ApiError.inWords(0, 'EXPORT_BROKEN', 'export.broken', { count: breaks });
}

function archiveBrokenError(bytes: number): ApiError {
  return ApiError.inWords(0, 'DOWNLOAD_BROKEN', 'export.archiveBroken', {
    size: (bytes / 1024 / 1024).toFixed(1),
  });
}

interface SaveFilePicker {
  showSaveFilePicker?: (options: {
    suggestedName: string;
    types?: Array<{ description: string; accept: Record<string, string[]> }>;
  }) => Promise<FileSystemFileHandle>;
}

/**
 * A file the owner chooses, written as the export arrives; none when the
 * browser cannot (then the export is a download at the end). Asked first,
 * while the click that started the export still lets the page open the
 * browser's dialog. `null`: the owner closed the dialog without choosing.
 */
export async function chosenFileSink(
  suggestedName: string,
  description: string,
  mediaType: string,
  extension: string,
): Promise<ExportSink | null | undefined> {
  const picker = (globalThis as SaveFilePicker).showSaveFilePicker;
  if (!picker) return undefined;
  let handle: FileSystemFileHandle;
  try {
    handle = await picker({ suggestedName, types: [{ description, accept: { [mediaType]: [extension] } }] });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') return null;
    // Refused for another reason (no permission, a sandbox): download instead.
    return undefined;
  }
  const writable = await handle.createWritable();
  return {
    where: 'file',
    write: (part) => writable.write(part as Uint8Array<ArrayBuffer>),
    close: () => writable.close(),
    abort: () => writable.abort(),
  };
}

// Parts are gathered into Blobs of about this size: the browser keeps large
// Blobs on disk, not in the page's memory.
const blobBatchBytes = 4 * 1024 * 1024;

/** The export gathered as Blob parts and offered as a download once whole. */
export function downloadSink(mediaType: string): ExportSink {
  const blobs: Blob[] = [];
  let batch: Uint8Array<ArrayBuffer>[] = [];
  let batchBytes = 0;
  const flush = () => {
    if (batch.length > 0) blobs.push(new Blob(batch));
    batch = [];
    batchBytes = 0;
  };
  return {
    where: 'download',
    write: (part) => {
      batch.push(part as Uint8Array<ArrayBuffer>);
      batchBytes += part.length;
      if (batchBytes >= blobBatchBytes) flush();
      return Promise.resolve();
    },
    close: (fileName) => {
      flush();
      saveFile(new Blob(blobs, { type: mediaType }), fileName);
      blobs.length = 0;
      return Promise.resolve();
    },
    abort: () => {
      batch = [];
      blobs.length = 0;
      return Promise.resolve();
    },
  };
}

// The browser's own download of bytes fetched with the token: a link to
// them, clicked once, let go after the browser has taken them.
export function saveFile(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
