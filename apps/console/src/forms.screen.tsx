import type { WorkspaceResource } from '@formline/contracts';
import { useEffect, useState } from 'preact/hooks';
import { type ApiClient, ApiError } from './api.client';
import { FormListView, type ListedForm } from './form-list.view';
import { ProblemView } from './problem.view';
import { WorkspaceListView } from './workspace-list.view';

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

// The Forms screen: the account's workspaces, and the forms of the one chosen
// (or of all), found by their title, a page at a time.
export function FormsScreen({ api, onSignInEnded }: Props) {
  const [workspaces, setWorkspaces] = useState<Loaded<WorkspaceResource[]>>({ state: 'loading' });
  const [workspaceId, setWorkspaceId] = useState<string>();
  const [typed, setTyped] = useState('');
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const [forms, setForms] = useState<Loaded<Page<ListedForm>>>({ state: 'loading' });

  const failed = (error: unknown) => {
    if (error instanceof ApiError && error.endsSignIn) onSignInEnded(error);
    return { state: 'failed', error } as const;
  };

  useEffect(() => {
    const abort = new AbortController();
    api
      .get<Page<WorkspaceResource>>('/workspaces', { page_size: 200 }, abort.signal)
      .then((answer) => setWorkspaces({ state: 'loaded', value: answer.items }))
      .catch((error: unknown) => abort.signal.aborted || setWorkspaces(failed(error)));
    return () => abort.abort();
  }, [api]);

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
  }, [api, workspaceId, search, page]);

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
      <h1>Forms</h1>
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
          <h2 id="forms-title">{chosen ? `Forms in ${chosen.name}` : 'All forms'}</h2>
          <form
            role="search"
            class="search"
            onSubmit={(event) => {
              event.preventDefault();
              setSearch(typed.trim());
              setPage(1);
            }}
          >
            <label for="form-search">Search by title</label>
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
            <button type="submit">Search</button>
          </form>
          <FormsFound forms={forms} search={search} page={page} onPage={setPage} />
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
}: {
  forms: Loaded<Page<ListedForm>>;
  search: string;
  page: number;
  onPage: (page: number) => void;
}) {
  if (forms.state === 'failed') return <ProblemView error={forms.error} />;
  const found = forms.state === 'loaded' ? forms.value : undefined;
  const summary = !found
    ? 'Loading forms…'
    : found.total_items === 0
      ? search
        ? `No form's title holds “${search}”.`
        : 'No forms here yet.'
      : `${found.total_items} ${found.total_items === 1 ? 'form' : 'forms'}${search ? ` with “${search}” in the title` : ''}.`;
  return (
    <>
      <p class="summary" role="status">
        {summary}
      </p>
      {found && <FormListView forms={found.items} />}
      {found && found.page_count > 1 && (
        <nav class="pages" aria-label="Pages of forms">
          <button type="button" disabled={page <= 1} onClick={() => onPage(page - 1)}>
            Previous page
          </button>
          <span>
            Page {page} of {found.page_count}
          </span>
          <button type="button" disabled={page >= found.page_count} onClick={() => onPage(page + 1)}>
            Next page
          </button>
        </nav>
      )}
    </>
  );
}
