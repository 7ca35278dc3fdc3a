import { type ConsoleTexts, englishTexts, type TextKey } from './console.texts';
import type { ExportProgress } from './results-export.client';
import type { ExportFormat } from './results-export-rows.mapper';

// The export's progress and outcome in words, for its live region.

/** What an export is called, and how its file is typed, by format. */
export const exportKinds = {
  csv: { label: 'export.csv', description: 'export.csvFile', mediaType: 'text/csv', extension: '.csv' },
  jsonl: {
    label: 'export.jsonl',
    description: 'export.jsonlFile',
    mediaType: 'application/x-ndjson',
    extension: '.jsonl',
  },
} as const satisfies Record<
  ExportFormat,
  { label: TextKey; description: TextKey; mediaType: string; extension: string }
>;

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

export function bytesInWords(bytes: number, texts: ConsoleTexts = englishTexts): string {
  const { t } = texts;
  // So many decimals, always ("3.0 MB"), in the language's way of writing them.
  const fixed = (value: number, digits: number) =>
    texts.number(value, { minimumFractionDigits: digits, maximumFractionDigits: digits, useGrouping: false });
  if (bytes < 1024) return t('bytes.b', { count: bytes });
  if (bytes < 1024 * 1024) return t('bytes.kb', { size: fixed(bytes / 1024, 0) });
  if (bytes < 1024 * 1024 * 1024) return t('bytes.mb', { size: fixed(bytes / 1024 / 1024, 1) });
  return t('bytes.gb', { size: fixed(bytes / 1024 / 1024 / 1024, 2) });
}

const responses = (n: number, texts: ConsoleTexts) =>
  texts.t('export.responses', { count: n, number: texts.number(n) });

/** "N responses so far (of M)", or the bytes of a files archive; and that it resumed, when it did. */
export function progressInWords(
  progress: ExportProgress,
  total?: number,
  texts: ConsoleTexts = englishTexts,
): string {
  const { t } = texts;
  const so =
    progress.rows === undefined
      ? t('export.filesSoFar', { size: bytesInWords(progress.bytes, texts) })
      : total === undefined
        ? t('export.soFar', { responses: responses(progress.rows, texts) })
        : t('export.soFarOf', { responses: responses(progress.rows, texts), total: texts.number(total) });
  return progress.resumes === 0
    ? so
    : t('export.andResumed', { so, resumed: resumedInWords(progress.resumes, texts) });
}

function resumedInWords(resumes: number, { t }: ConsoleTexts): string {
  return t('export.resumed', { count: resumes });
}

/** The outcome, once the export is whole. */
export function doneInWords(
  progress: ExportProgress & { fileName: string },
  where: 'file' | 'download',
  texts: ConsoleTexts = englishTexts,
): string {
  const { t } = texts;
  const file = progress.fileName;
  const done =
    progress.rows === undefined
      ? t(where === 'file' ? 'export.archiveSaved' : 'export.archiveDownloaded', {
          size: bytesInWords(progress.bytes, texts),
          file,
        })
      : t(where === 'file' ? 'export.saved' : 'export.downloaded', {
          responses: responses(progress.rows, texts),
          file,
        });
  return progress.resumes === 0
    ? done
    : t('export.andResumed', { so: done, resumed: resumedInWords(progress.resumes, texts) });
}

export function cancelledInWords(progress: ExportProgress, texts: ConsoleTexts = englishTexts): string {
  const after =
    progress.rows === undefined ? bytesInWords(progress.bytes, texts) : responses(progress.rows, texts);
  return texts.t('export.cancelled', { after });
}
