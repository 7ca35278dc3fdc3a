import type { ExportProgress } from './results-export.client';
import type { ExportFormat } from './results-export-rows.mapper';

// The export's progress and outcome in words, for its live region.

/** What an export is called, and how its file is typed, by format. */
export const exportKinds = {
  csv: { label: 'CSV', description: 'CSV file', mediaType: 'text/csv', extension: '.csv' },
  jsonl: {
    label: 'JSON lines',
    description: 'JSON lines file',
    mediaType: 'application/x-ndjson',
    extension: '.jsonl',
  },
} as const satisfies Record<ExportFormat, unknown>;

// The listing counts filtered matches up to this bound (and says that many when there are more).
const countBound = 1000;

/**
 * The total a progress bar can run to: the listing's count for the same
 * filters, when it is exact (unfiltered, where it is the form's tally, or
 * below the bound of a filtered count); none otherwise.
 */
export function exactTotal(totalItems: number, filtered: boolean): number | undefined {
  return filtered && totalItems >= countBound ? undefined : totalItems;
}

const count = (n: number) => n.toLocaleString('en-GB');

export function bytesInWords(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(0)} KB`;
  if (bytes < 1024 * 1024 * 1024) return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
  return `${(bytes / 1024 / 1024 / 1024).toFixed(2)} GB`;
}

const responses = (n: number) => `${count(n)} ${n === 1 ? 'response' : 'responses'}`;

/** "N responses so far (of M)", or the bytes of a files archive; and that it resumed, when it did. */
export function progressInWords(progress: ExportProgress, total?: number): string {
  const so =
    progress.rows === undefined
      ? `${bytesInWords(progress.bytes)} of files so far.`
      : `${responses(progress.rows)} so far${total === undefined ? '' : ` of ${count(total)}`}.`;
  return progress.resumes === 0 ? so : `${so} ${resumedInWords(progress.resumes)}`;
}

function resumedInWords(resumes: number): string {
  return `The connection broke ${resumes === 1 ? 'once' : `${resumes} times`}; the export went on after the last whole response, without starting over.`;
}

/** The outcome, once the export is whole. */
export function doneInWords(
  progress: ExportProgress & { fileName: string },
  where: 'file' | 'download',
): string {
  const what =
    progress.rows === undefined
      ? `The files archive (${bytesInWords(progress.bytes)})`
      : `The export of ${responses(progress.rows)}`;
  const landed =
    where === 'file' ? `is saved to ${progress.fileName}` : `is downloaded as ${progress.fileName}`;
  return `${what} ${landed}.${progress.resumes === 0 ? '' : ` ${resumedInWords(progress.resumes)}`}`;
}

export function cancelledInWords(progress: ExportProgress): string {
  const after = progress.rows === undefined ? bytesInWords(progress.bytes) : responses(progress.rows);
  return `The export is cancelled after ${after}; nothing is saved.`;
}
