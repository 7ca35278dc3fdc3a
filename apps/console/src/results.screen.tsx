import { useCallback, useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { type ApiClient, ApiError } from './api.client';
import { type ConsoleRoute, hashOf } from './console.route';
import { ConfirmDeletionView } from './confirm-deletion.view';
import { ProblemView } from './problem.view';
import { type ResponsePage, ResponseApiClient } from './response-api.client';
import { ResponseDetailView } from './response-detail.view';
import { ResponseTableView } from './response-table.view';
import { type FormOfResults, questionsOf, type ResponseItem, totalInWords } from './response.format';
import { saveFile } from './results-export.client';
import { ResultsExportView } from './results-export.view';
import { resultsPaging, type ResultsView } from './results-filter.route';
import { ResultsFilterView } from './results-filter.view';
import { useTexts } from './texts.context';

interface Props {
  api: ApiClient;
  formId: string;
  /** The filters, page and opened response, from the address: a reload keeps them. */
  view: ResultsView;
  go: (route: ConsoleRoute) => void;
  onSignInEnded: (error: ApiError) => void;
}

type Loaded<T> = { state: 'loading' } | { state: 'failed'; error: unknown } | { state: 'loaded'; value: T };

// A page holds at most this many responses: the table renders every row of
// it, so its size bounds the page's work whatever the form's count
// (docs/decisions/console.md, "The Results screen").
export const resultsPageSize = 50;

// The Results screen of one form: its responses as a table (a column a
// question), filtered and paged as the Responses API filters and pages them,
// one response opened whole, the selected ones deleted once confirmed, and
// the export of exactly what the filters select (results-export.view.tsx).
export function ResultsScreen({ api, formId, view, go, onSignInEnded }: Props) {
  const texts = useTexts();
  const { t } = texts;
  const responses = useMemo(() => new ResponseApiClient(api, formId), [api, formId]);
  const [form, setForm] = useState<Loaded<FormOfResults>>({ state: 'loading' });
  const [page, setPage] = useState<Loaded<ResponsePage>>({ state: 'loading' });
  const [opened, setOpened] = useState<Loaded<ResponseItem | undefined>>({ state: 'loading' });
  const [version, setVersion] = useState(0);
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [confirming, setConfirming] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const [notice, setNotice] = useState('');
  const [actionProblem, setActionProblem] = useState<unknown>();
  const heading = useRef<HTMLHeadingElement>(null);
  const { filters } = view;
  const filterKey = JSON.stringify(filters);

  const failed = (error: unknown) => {
    if (error instanceof ApiError && error.endsSignIn) onSignInEnded(error);
    return error;
  };

  useEffect(() => heading.current?.focus(), [formId]);
  // A response closed takes its view (and the focus in it) away: focus goes back to the screen's heading.
  const wasOpen = useRef(view.open);
  useEffect(() => {
    if (wasOpen.current && !view.open) heading.current?.focus();
    wasOpen.current = view.open;
  }, [view.open]);

  useEffect(() => {
    const abort = new AbortController();
    responses
      .form(abort.signal)
      .then((value) => setForm({ state: 'loaded', value }))
      .catch((error: unknown) => abort.signal.aborted || setForm({ state: 'failed', error: failed(error) }));
    return () => abort.abort();
  }, [responses]);

  useEffect(() => {
    const abort = new AbortController();
    setPage({ state: 'loading' });
    responses
      .list(filters, view.page, resultsPageSize, abort.signal)
      .then((value) => setPage({ state: 'loaded', value }))
      .catch((error: unknown) => abort.signal.aborted || setPage({ state: 'failed', error: failed(error) }));
    return () => abort.abort();
  }, [responses, filterKey, view.page.before, view.page.after, version]);

  useEffect(() => {
    if (!view.open) return;
    const abort = new AbortController();
    setOpened({ state: 'loading' });
    responses
      .one(view.open, abort.signal)
      .then((value) => setOpened({ state: 'loaded', value }))
      .catch(
        (error: unknown) => abort.signal.aborted || setOpened({ state: 'failed', error: failed(error) }),
      );
    return () => abort.abort();
  }, [responses, view.open, version]);

  // A selection belongs to the page it was made on.
  useEffect(() => setSelected(new Set()), [filterKey, view.page.before, view.page.after]);

  const to = (next: Partial<ResultsView>) => {
    setNotice('');
    go({ screen: 'results', formId, view: { ...view, ...next } });
  };
  const hrefOf = (next: Partial<ResultsView>) =>
    hashOf({ screen: 'results', formId, view: { ...view, ...next } });

  const questions = form.state === 'loaded' ? questionsOf(form.value.fields) : [];
  const items = page.state === 'loaded' ? page.value.items : [];
  const paging = resultsPaging(
    view.page,
    items.map((item) => item.token),
    resultsPageSize,
    page.state === 'loaded' ? page.value.total_items : 0,
  );
  const first = view.page.before === undefined && view.page.after === undefined;
  const filtered = Boolean(filters.query || filters.since || filters.until || filters.answered);

  const deleteSelected = () => {
    const tokens = [...selected];
    setDeleting(true);
    responses
      .delete(tokens)
      .then(() => {
        setActionProblem(undefined);
        setConfirming(false);
        setSelected(new Set());
        setNotice(t('results.deleted', { count: tokens.length }));
        if (view.open && tokens.includes(view.open)) to({ open: undefined });
        setVersion((current) => current + 1);
      })
      .catch((error: unknown) => setActionProblem(failed(error)))
      .finally(() => setDeleting(false));
  };
  const cancelDelete = useCallback(() => setConfirming(false), []);

  const download = async (fileUrl: string, fileName: string) => {
    const fetching = responses.file(fileUrl, fileName);
    if (!fetching) {
      throw ApiError.inWords(0, 'NOT_A_FILE', 'results.notAFile');
    }
    const { blob, fileName: named } = await fetching.catch((error: unknown) => {
      throw failed(error);
    });
    saveFile(blob, named);
  };

  const summary =
    page.state === 'loading'
      ? t('results.loading')
      : page.state === 'failed'
        ? ''
        : items.length === 0
          ? first
            ? filtered || filters.state !== 'completed'
              ? t('results.noneMatch')
              : t('results.noneYet')
            : t('results.noneOnPage')
          : first
            ? t('results.countFirst', {
                count: items.length,
                total: totalInWords(page.value.total_items, filtered, texts),
              })
            : t('results.count', { count: items.length });
  // Until the form is read (or when it cannot be), the heading names no form.
  const title =
    form.state === 'loaded'
      ? t('results.headingOf', { title: form.value.title || t('form.untitled') })
      : t('results.heading');

  return (
    <main id="main" class="results-screen" tabIndex={-1}>
      <p>
        <a href={hashOf({ screen: 'forms' })}>{t('nav.backToForms')}</a>
      </p>
      <h1 ref={heading} tabIndex={-1}>
        {title}
      </h1>
      {form.state === 'failed' && <ProblemView error={form.error} />}
      <ResultsFilterView
        key={filterKey}
        filters={filters}
        questions={questions}
        onApply={(next) => to({ filters: next, page: {}, open: undefined })}
      />
      <p class="summary" role="status">
        {notice || summary}
      </p>
      {actionProblem !== undefined && <ProblemView error={actionProblem} />}
      {page.state === 'failed' && <ProblemView error={page.error} />}
      <div class="actions">
        <button type="button" disabled={selected.size === 0} onClick={() => setConfirming(true)}>
          {selected.size > 0
            ? t('results.deleteSelectedCount', { count: selected.size })
            : t('results.deleteSelected')}
        </button>
        <button type="button" onClick={() => setVersion((current) => current + 1)}>
          {t('log.refresh')}
        </button>
      </div>
      <ResultsExportView responses={responses} filters={filters} filtered={filtered} failed={failed} />
      {confirming && (
        <ConfirmDeletionView
          question={t('results.deleteQuestion', { count: selected.size })}
          confirmLabel={t('results.deleteConfirm', { count: selected.size })}
          cancelLabel={t('results.deleteCancel', { count: selected.size })}
          deleting={deleting}
          onConfirm={deleteSelected}
          onCancel={cancelDelete}
        >
          {t('results.deleteWhat')}
        </ConfirmDeletionView>
      )}
      {view.open && opened.state === 'failed' && <ProblemView error={opened.error} />}
      {view.open && opened.state === 'loaded' && !opened.value && (
        <p class="notice">
          {t('results.gone')} <a href={hrefOf({ open: undefined })}>{t('results.close')}</a>
        </p>
      )}
      {view.open && opened.state === 'loaded' && opened.value && (
        <ResponseDetailView
          response={opened.value}
          questions={questions}
          hidden={form.state === 'loaded' ? (form.value.hidden ?? []) : []}
          closeHref={hrefOf({ open: undefined })}
          onDownload={download}
        />
      )}
      <ResponseTableView
        questions={questions}
        responses={items}
        selected={selected}
        onSelect={(token, on) =>
          setSelected((current) => {
            const next = new Set(current);
            if (on) next.add(token);
            else next.delete(token);
            return next;
          })
        }
        onSelectAll={(on) => setSelected(new Set(on ? items.map((item) => item.token) : []))}
        openHref={(token) => hrefOf({ open: token })}
      />
      {(paging.newer || paging.older) && (
        <nav class="pages" aria-label={t('results.pages')}>
          <PageButton
            label={t('log.newest')}
            enabled={Boolean(paging.newest)}
            go={() => to({ page: {}, open: undefined })}
          />
          <PageButton
            label={t('log.newer')}
            enabled={Boolean(paging.newer)}
            go={() => paging.newer && to({ page: paging.newer, open: undefined })}
          />
          <PageButton
            label={t('log.older')}
            enabled={Boolean(paging.older)}
            go={() => paging.older && to({ page: paging.older, open: undefined })}
          />
        </nav>
      )}
    </main>
  );
}

function PageButton({ label, enabled, go }: { label: string; enabled: boolean; go: () => void }) {
  return (
    <button type="button" disabled={!enabled} onClick={go}>
      {label}
    </button>
  );
}
