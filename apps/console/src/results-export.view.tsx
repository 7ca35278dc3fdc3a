import { useEffect, useRef, useState } from 'preact/hooks';
import { ProblemView } from './problem.view';
import type { ResponseApiClient } from './response-api.client';
import { chosenFileSink, downloadSink, type ExportProgress, runExport } from './results-export.client';
import {
  cancelledInWords,
  doneInWords,
  exactTotal,
  exportKinds,
  progressInWords,
} from './results-export.format';
import { type ExportFormat, ExportRows } from './results-export-rows.mapper';
import type { ResultsFilters } from './results-filter.route';
import { useTexts } from './texts.context';

interface Props {
  responses: ResponseApiClient;
  /** The screen's filters: the export holds exactly what they select. */
  filters: ResultsFilters;
  /** Filters other than the state are set (the listing's count is then bounded). */
  filtered: boolean;
  /** A failure, handed to the screen first (a token refused signs the console out). */
  failed: (error: unknown) => unknown;
}

type Running = 'responses' | 'files';

// A screen reader is told the progress at most this often; the bar moves at every chunk.
const speakEveryMs = 1000;

// The Results screen's export: every response the filters select, as CSV or
// JSON lines, or the files they answer with, streamed with its progress
// (responses so far, a bar when the count is exact), cancelled at will, and
// resumed where the connection broke (results-export.client.ts).
export function ResultsExportView({ responses, filters, filtered, failed }: Props) {
  const texts = useTexts();
  const { t } = texts;
  const [format, setFormat] = useState<ExportFormat>('csv');
  const [running, setRunning] = useState<Running>();
  const [progress, setProgress] = useState<ExportProgress>({ bytes: 0, resumes: 0 });
  const [total, setTotal] = useState<number>();
  const [said, setSaid] = useState('');
  const [problem, setProblem] = useState<unknown>();
  const abort = useRef<AbortController>();
  const latest = useRef<ExportProgress>({ bytes: 0, resumes: 0 });
  const totalNow = useRef<number>();
  const spokenAt = useRef(0);
  const exportButton = useRef<HTMLButtonElement>(null);
  const filesButton = useRef<HTMLButtonElement>(null);
  const cancelButton = useRef<HTMLButtonElement>(null);

  // Leaving the screen ends an export under way.
  useEffect(() => () => abort.current?.abort(), []);
  // The button pressed is disabled while it runs: the focus goes to Cancel,
  // and back to that button after, unless the person has gone elsewhere meanwhile.
  const wasRunning = useRef<Running>();
  useEffect(() => {
    const lost = !document.activeElement || document.activeElement === document.body;
    if (running) cancelButton.current?.focus();
    else if (lost && wasRunning.current === 'responses') exportButton.current?.focus();
    else if (lost && wasRunning.current === 'files') filesButton.current?.focus();
    wasRunning.current = running;
  }, [running]);

  const onProgress = (next: ExportProgress) => {
    const resumed = next.resumes !== latest.current.resumes;
    latest.current = next;
    setProgress(next);
    if (!resumed && Date.now() - spokenAt.current < speakEveryMs) return;
    spokenAt.current = Date.now();
    setSaid(progressInWords(next, totalNow.current, texts));
  };

  const start = async (what: Running) => {
    const kind = what === 'files' ? undefined : exportKinds[format];
    const suggested = kind
      ? `${responses.formId}-responses${kind.extension}`
      : `${responses.formId}-files.tar`;
    setProblem(undefined);
    // First, while the click still allows the browser's dialog.
    const chosen = await chosenFileSink(
      suggested,
      kind ? t(kind.description) : t('export.tarArchive'),
      kind?.mediaType ?? 'application/x-tar',
      kind?.extension ?? '.tar',
    ).catch((error: unknown) => {
      setProblem(error);
      return null;
    });
    if (chosen === null) return setSaid(t('export.noFile'));
    const sink = chosen ?? downloadSink(kind?.mediaType ?? 'application/x-tar');
    const controller = new AbortController();
    abort.current = controller;
    const first: ExportProgress = { rows: kind ? 0 : undefined, bytes: 0, resumes: 0 };
    latest.current = first;
    totalNow.current = undefined;
    spokenAt.current = 0;
    setProgress(first);
    setTotal(undefined);
    setSaid(kind ? t('export.exporting') : t('export.downloading'));
    setRunning(what);
    if (kind) {
      responses
        .count(filters, controller.signal)
        .then((count) => {
          totalNow.current = exactTotal(count, filtered);
          setTotal(totalNow.current);
        })
        // Without a count the export goes on, without a bar.
        .catch(() => undefined);
    }
    try {
      const done = await runExport({
        open: (after) =>
          kind
            ? responses.openExport(filters, format, after, controller.signal)
            : responses.openFiles(filters, controller.signal),
        rows: kind ? new ExportRows(format) : undefined,
        sink,
        signal: controller.signal,
        onProgress,
      });
      setSaid(doneInWords(done, sink.where, texts));
    } catch (error) {
      if (controller.signal.aborted) setSaid(cancelledInWords(latest.current, texts));
      else {
        setSaid('');
        setProblem(failed(error));
      }
    } finally {
      abort.current = undefined;
      setRunning(undefined);
    }
  };

  return (
    <section class="export" aria-labelledby="export-title">
      <h2 id="export-title">{t('export.heading')}</h2>
      <fieldset class="formats">
        <legend>{t('export.format')}</legend>
        {(Object.keys(exportKinds) as ExportFormat[]).map((name) => (
          <label key={name} class="check">
            <input
              type="radio"
              name="export-format"
              value={name}
              checked={format === name}
              disabled={running !== undefined}
              onChange={() => setFormat(name)}
            />
            {t(exportKinds[name].label)}
          </label>
        ))}
      </fieldset>
      <div class="actions">
        <button
          ref={exportButton}
          type="button"
          disabled={running !== undefined}
          onClick={() => void start('responses')}
        >
          {running === 'responses' ? t('export.exporting') : t('export.start')}
        </button>
        <button
          ref={filesButton}
          type="button"
          disabled={running !== undefined}
          onClick={() => void start('files')}
        >
          {running === 'files' ? t('export.downloading') : t('export.files')}
        </button>
        {running && (
          <button ref={cancelButton} type="button" onClick={() => abort.current?.abort()}>
            {t('export.cancel')}
          </button>
        )}
      </div>
      <p class="hint">{t('export.hint')}</p>
      {running === 'responses' && total !== undefined && (
        <p class="export-progress">
          <label for="export-progress">{t('export.progress')}</label>{' '}
          <progress id="export-progress" max={Math.max(total, 1)} value={progress.rows ?? 0} />
        </p>
      )}
      <p class="export-status" role="status">
        {said}
      </p>
      {problem !== undefined && <ProblemView error={problem} />}
    </section>
  );
}
