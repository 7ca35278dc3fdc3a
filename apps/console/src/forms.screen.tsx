import type { WorkspaceResource } from '@formline/contracts';
import type { ComponentChildren } from 'preact';
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { type ApiClient, ApiError } from './api.client';
import { ConfirmDeletionView } from './confirm-deletion.view';
import { CreateFormView } from './create-form.view';
import { FormApiClient } from './form-api.client';
import { formDeletionInWords, formDeletionQuestion } from './form-deletion.format';
import { FormListView, type ListedForm } from './form-list.view';
import { ProblemView } from './problem.view';
import { WorkspaceListView } from './workspace-list.view';
import { useTexts } from './texts.context';

interface Page<T> {
  total_items: number;
  page_count: number;
  items: T[];
}

interface Props {
  api: ApiClient;
  /** The server refused the token: back to the sign-in, saying why. */
  onSignInEnded: (error: ApiError) => void;
}

const pageSize = 50;
// Typing waits this long for the next key before the search is sent.
const searchDelayMs = 250;

type Loaded<T> = { state: 'loading' } | { state: 'failed'; error: unknown } | { state: 'loaded'; value: T };
type Creating = { busy: boolean; problem?: unknown };
type Deleting = { form: ListedForm; responses: number | undefined; busy: boolean };

// The Forms screen: the account's workspaces, and the forms of the one chosen
// (or of all), found by their title, a page at a time; creating a form,
// duplicating one, and deleting one once confirmed. Every change is answered
// in the status line, or by the API's words when it fails, and focus goes to
// what changed: the form made, or the list a form left.
export function FormsScreen({ api, onSignInEnded }: Props) {
  const texts = useTexts();
  const { t } = texts;
  const formsApi = useMemo(() => new FormApiClient(api), [api]);
  const [workspaces, setWorkspaces] = useState<Loaded<WorkspaceResource[]>>({ state: 'loading' });
  const [workspaceId, setWorkspaceId] = useState<string>();
  const [typed, setTyped] = useState('');
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const [forms, setForms] = useState<Loaded<Page<ListedForm>>>({ state: 'loading' });
  // Bumped after every change, to read the workspaces (their counts) and the forms again.
  const [version, setVersion] = useState(0);
  const [creating, setCreating] = useState<Creating>();
  const [deleting, setDeleting] = useState<Deleting>();
  const [busyId, setBusyId] = useState<string>();
  const [focusId, setFocusId] = useState<string>();
  const [notice, setNotice] = useState('');
  const [actionProblem, setActionProblem] = useState<unknown>();
  const newFormButton = useRef<HTMLButtonElement>(null);
  const formsTitle = useRef<HTMLHeadingElement>(null);

  const failed = (error: unknown) => {
    if (error instanceof ApiError && error.endsSignIn) onSignInEnded(error);
    return { state: 'failed', error } as const;
  };
  const changed = (message: string) => {
    setNotice(message);
    setActionProblem(undefined);
    setVersion((current) => current + 1);
  };

  useEffect(() => {
    const abort = new AbortController();
    api
      .get<Page<WorkspaceResource>>('/workspaces', { page_size: 200 }, abort.signal)
      .then((answer) => setWorkspaces({ state: 'loaded', value: answer.items }))
      .catch((error: unknown) => abort.signal.aborted || setWorkspaces(failed(error)));
    return () => abort.abort();
  }, [api, version]);

  useEffect(() => {
    const timer = setTimeout(() => setSearch(typed.trim()), searchDelayMs);
    return () => clearTimeout(timer);
  }, [typed]);

  useEffect(() => {
    const abort = new AbortController();
    setForms({ state: 'loading' });
    api
      .get<Page<ListedForm>>(
        '/forms',
        { workspace_id: workspaceId, search, page, page_size: pageSize },
        abort.signal,
      )
      .then((answer) => setForms({ state: 'loaded', value: answer }))
      .catch((error: unknown) => abort.signal.aborted || setForms(failed(error)));
    return () => abort.abort();
  }, [api, workspaceId, search, page, version]);

  const create = (title: string, workspace: WorkspaceResource | undefined) => {
    setCreating({ busy: true });
    formsApi
      .create(title, workspace?.self.href)
      .then((form) => {
        setCreating(undefined);
        // The new form first (the list is newest first), where it went.
        setTyped('');
        setSearch('');
        setPage(1);
        if (workspaceId !== undefined) setWorkspaceId(workspace?.id);
        setFocusId(form.id);
        changed(
          workspace
            ? t('forms.createdIn', { title: form.title, workspace: workspace.name })
            : t('forms.created', { title: form.title }),
        );
      })
      .catch((error: unknown) => setCreating({ busy: false, problem: failed(error).error }));
  };

  const duplicate = (form: ListedForm) => {
    setBusyId(form.id);
    setNotice('');
    formsApi
      .duplicate(form.id, texts)
      .then(({ copy, messagesProblem }) => {
        setPage(1);
        setFocusId(copy.id);
        const names = { title: copy.title, original: form.title };
        changed(
          messagesProblem === undefined ? t('forms.copied', names) : t('forms.copiedWithoutTexts', names),
        );
        if (messagesProblem !== undefined) setActionProblem(failed(messagesProblem).error);
      })
      .catch((error: unknown) => setActionProblem(failed(error).error))
      .finally(() => setBusyId(undefined));
  };

  // The question waits for the count of responses, so it is said whole when focus reaches it.
  const askToDelete = (form: ListedForm) => {
    setBusyId(form.id);
    setNotice('');
    const asked = (responses: number | undefined) => {
      setBusyId(undefined);
      setDeleting({ form, responses, busy: false });
    };
    // Without the count (refused, unreachable) the question still says what goes.
    formsApi.responseCount(form.id).then(asked, () => asked(undefined));
  };

  const remove = (form: ListedForm) => {
    setDeleting((current) => current && { ...current, busy: true });
    formsApi
      .delete(form.id)
      .then(() => {
        setDeleting(undefined);
        changed(t('forms.deleted', { title: form.title }));
        formsTitle.current?.focus();
      })
      .catch((error: unknown) => {
        setDeleting(undefined);
        setActionProblem(failed(error).error);
        setFocusId(form.id);
      });
  };

  const chooseWorkspace = (id: string | undefined) => {
    setWorkspaceId(id);
    setPage(1);
  };
  const chosen =
    workspaces.state === 'loaded'
      ? workspaces.value.find((workspace) => workspace.id === workspaceId)
      : undefined;

  return (
    <main id="main" class="forms-screen" tabIndex={-1}>
      <h1>{t('forms.heading')}</h1>
      {!creating && (
        <button
          type="button"
          class="primary"
          ref={newFormButton}
          onClick={() => {
            setNotice('');
            setCreating({ busy: false });
          }}
        >
          {t('forms.new')}
        </button>
      )}
      {creating && (
        <CreateFormView
          workspaces={workspaces.state === 'loaded' ? workspaces.value : []}
          workspaceId={workspaceId}
          creating={creating.busy}
          problem={creating.problem}
          onCreate={create}
          onCancel={() => {
            setCreating(undefined);
            // The button comes back with the next render.
            setTimeout(() => newFormButton.current?.focus());
          }}
        />
      )}
      <div class="columns">
        {workspaces.state === 'loaded' && (
          <WorkspaceListView
            workspaces={workspaces.value}
            selected={workspaceId}
            onSelect={chooseWorkspace}
          />
        )}
        {workspaces.state === 'failed' && <ProblemView error={workspaces.error} />}
        <section class="found" aria-labelledby="forms-title">
          <h2 id="forms-title" tabIndex={-1} ref={formsTitle}>
            {chosen ? t('forms.inWorkspace', { workspace: chosen.name }) : t('forms.all')}
          </h2>
          <form
            role="search"
            class="search"
            onSubmit={(event) => {
              event.preventDefault();
              setSearch(typed.trim());
              setPage(1);
            }}
          >
            <label for="form-search">{t('forms.searchLabel')}</label>
            <input
              id="form-search"
              type="search"
              maxLength={200}
              value={typed}
              onInput={(event) => {
                setTyped(event.currentTarget.value);
                setPage(1);
              }}
            />
            <button type="submit">{t('forms.search')}</button>
          </form>
          <p class="notice-line" role="status">
            {notice}
          </p>
          {actionProblem !== undefined && <ProblemView error={actionProblem} />}
          {deleting && (
            <ConfirmDeletionView
              question={formDeletionQuestion(deleting.form.title, texts)}
              confirmLabel={t('forms.deleteConfirm')}
              cancelLabel={t('forms.deleteCancel')}
              deleting={deleting.busy}
              onConfirm={() => remove(deleting.form)}
              onCancel={() => {
                setDeleting(undefined);
                setFocusId(deleting.form.id);
              }}
            >
              {formDeletionInWords(deleting.responses, texts)}
            </ConfirmDeletionView>
          )}
          <FormsFound forms={forms} search={search} page={page} onPage={setPage}>
            {(found) => (
              <FormListView
                forms={found}
                busyId={busyId}
                focusId={focusId}
                onFocused={() => setFocusId(undefined)}
                onDuplicate={duplicate}
                onDelete={askToDelete}
              />
            )}
          </FormsFound>
        </section>
      </div>
    </main>
  );
}

function FormsFound({
  forms,
  search,
  page,
  onPage,
  children,
}: {
  forms: Loaded<Page<ListedForm>>;
  search: string;
  page: number;
  onPage: (page: number) => void;
  /** The list of the forms found. */
  children: (found: ListedForm[]) => ComponentChildren;
}) {
  const { t } = useTexts();
  if (forms.state === 'failed') return <ProblemView error={forms.error} />;
  const found = forms.state === 'loaded' ? forms.value : undefined;
  const summary = !found
    ? t('forms.loading')
    : found.total_items === 0
      ? search
        ? t('forms.noneFound', { search })
        : t('forms.none')
      : search
        ? t('forms.countFound', { count: found.total_items, search })
        : t('forms.count', { count: found.total_items });
  return (
    <>
      <p class="summary" role="status">
        {summary}
      </p>
      {found && children(found.items)}
      {found && found.page_count > 1 && (
        <nav class="pages" aria-label={t('forms.pages')}>
          <button type="button" disabled={page <= 1} onClick={() => onPage(page - 1)}>
            {t('pages.previous')}
          </button>
          <span>{t('pages.pageOf', { page, count: found.page_count })}</span>
          <button type="button" disabled={page >= found.page_count} onClick={() => onPage(page + 1)}>
            {t('pages.next')}
          </button>
        </nav>
      )}
    </>
  );
}
