import { useEffect, useLayoutEffect, useMemo, useReducer, useRef, useState } from 'preact/hooks';
import { type ApiClient, ApiError } from './api.client';
import { BuilderApiClient, type ListedTheme } from './builder-api.client';
import {
  type EditableForm,
  editableFormOf,
  formOf,
  type Json,
  type PathProblem,
  problemsByQuestion,
} from './builder-form.mapper';
import { BuilderHiddenView } from './builder-hidden.view';
import { readJson } from './builder-json.mapper';
import { BuilderJsonView } from './builder-json.view';
import { previewOf } from './builder-preview.mapper';
import { BuilderPreviewView } from './builder-preview.view';
import { BuilderQuestionsView } from './builder-questions.view';
import { nextSaveState } from './builder-save.flow';
import { BuilderSaveView } from './builder-save.view';
import { BuilderScreensView } from './builder-screens.view';
import { BuilderThemeView } from './builder-theme.view';
import { hashOf } from './console.route';
import { ProblemView } from './problem.view';
import { useTexts } from './texts.context';

interface Props {
  api: ApiClient;
  formId: string;
  onSignInEnded: (error: ApiError) => void;
}

type Loaded<T> = { state: 'loading' } | { state: 'failed'; error: unknown } | { state: 'loaded'; value: T };
interface Saved {
  form: Json;
  etag: string;
}
type Mode = 'builder' | 'json';

const pretty = (value: unknown) => JSON.stringify(value, null, 2);
const newKey = () => crypto.randomUUID();

// The builder of one form (#/forms/{id}/edit): its questions, welcome and
// ending, hidden fields and theme in inputs, or the whole definition as
// JSON; saved with PUT and If-Match, so a save never overwrites a version
// saved by someone else since; and the saved form's real page beside it.
export function BuilderScreen({ api, formId, onSignInEnded }: Props) {
  const texts = useTexts();
  const { t } = texts;
  const client = useMemo(() => new BuilderApiClient(api, formId), [api, formId]);
  const [saved, setSaved] = useState<Loaded<Saved>>({ state: 'loading' });
  const [edited, setEdited] = useState<EditableForm>();
  const [baseline, setBaseline] = useState('');
  const [mode, setMode] = useState<Mode>('builder');
  const [jsonText, setJsonText] = useState('');
  const [save, dispatch] = useReducer(nextSaveState, { kind: 'idle' });
  const [refusal, setRefusal] = useState<{ byKey: Record<string, PathProblem[]>; all: PathProblem[] }>();
  const [blocked, setBlocked] = useState<string>();
  const [loadingNewer, setLoadingNewer] = useState(false);
  // Loading the newer version failed: said, and the edits here kept.
  const [loadProblem, setLoadProblem] = useState<unknown>();
  const [themes, setThemes] = useState<Loaded<ListedTheme[]>>({ state: 'loading' });
  const [focusId, setFocusId] = useState<string>();
  const heading = useRef<HTMLHeadingElement>(null);

  const failed = (error: unknown) => {
    if (error instanceof ApiError && error.endsSignIn) onSignInEnded(error);
    return { state: 'failed', error } as const;
  };
  const show = (version: Saved) => {
    const editable = editableFormOf(version.form, newKey);
    setSaved({ state: 'loaded', value: version });
    setEdited(editable);
    setBaseline(pretty(formOf(editable)));
    setJsonText(pretty(version.form));
  };
  const versionOf = (answer: { body: Json; etag?: string }): Saved => ({
    form: answer.body,
    etag: answer.etag ?? '',
  });

  useEffect(() => {
    const abort = new AbortController();
    client
      .load(abort.signal)
      .then((answer) => show(versionOf(answer)))
      .catch((error: unknown) => abort.signal.aborted || setSaved(failed(error)));
    client
      .themes(abort.signal)
      .then((value) => setThemes({ state: 'loaded', value }))
      .catch((error: unknown) => abort.signal.aborted || setThemes(failed(error)));
    return () => abort.abort();
  }, [client]);

  useEffect(() => heading.current?.focus(), [saved.state === 'loaded']);
  // Right after the render that put the element there, before the next key.
  useLayoutEffect(() => {
    if (!focusId) return;
    document.getElementById(focusId)?.focus();
    setFocusId(undefined);
  }, [focusId]);

  if (saved.state !== 'loaded' || !edited) {
    return (
      <main id="main" class="builder-screen" tabIndex={-1}>
        <p>
          <a href={hashOf({ screen: 'forms' })}>{t('nav.backToForms')}</a>
        </p>
        <h1>{t('builder.heading')}</h1>
        {saved.state === 'failed' ? (
          <ProblemView error={saved.error} />
        ) : (
          <p role="status">{t('builder.loading')}</p>
        )}
      </main>
    );
  }

  const unsaved =
    mode === 'json' ? jsonText !== pretty(saved.value.form) : pretty(formOf(edited)) !== baseline;
  const edit = (change: Partial<EditableForm>) => {
    setEdited({ ...edited, ...change });
    dispatch({ type: 'edited' });
  };
  const switchTo = (next: Mode) => {
    if (next === mode) return;
    if (next === 'json') {
      setJsonText(pretty(formOf(edited)));
      setMode('json');
      setBlocked(undefined);
      return;
    }
    const read = readJson(jsonText, texts);
    if (!read.ok || typeof read.value !== 'object' || read.value === null || Array.isArray(read.value)) {
      setBlocked(t('builder.jsonNotObject'));
      return;
    }
    setEdited(editableFormOf(read.value as Json, newKey));
    setBlocked(undefined);
    setMode('builder');
  };

  const saveNow = () => {
    let body: unknown = formOf(edited);
    if (mode === 'json') {
      const read = readJson(jsonText, texts);
      if (!read.ok) {
        setBlocked(t('builder.notJson', { message: read.message, line: read.line, column: read.column }));
        return;
      }
      body = read.value;
    }
    setBlocked(undefined);
    const sent = edited.questions;
    dispatch({ type: 'save' });
    client
      .save(body, saved.value.etag)
      .then((answer) => {
        setRefusal(undefined);
        show(versionOf(answer));
        dispatch({ type: 'saved' });
      })
      .catch((error: unknown) => {
        if (error instanceof ApiError && error.endsSignIn) onSignInEnded(error);
        const problems = error instanceof ApiError && error.status === 400 ? error.fieldProblems : [];
        setRefusal({ byKey: problemsByQuestion(sent, problems).byKey, all: problems });
        dispatch({ type: 'failed', error });
      });
  };
  const loadNewer = () => {
    setLoadingNewer(true);
    setLoadProblem(undefined);
    client
      .load()
      .then((answer) => {
        setRefusal(undefined);
        show(versionOf(answer));
        dispatch({ type: 'loaded' });
      })
      .catch((error: unknown) => {
        if (error instanceof ApiError && error.endsSignIn) onSignInEnded(error);
        setLoadProblem(error);
      })
      .finally(() => setLoadingNewer(false));
  };

  const preview = previewOf(saved.value.form, location.origin);
  return (
    <main id="main" class="builder-screen" tabIndex={-1}>
      <p>
        <a href={hashOf({ screen: 'forms' })}>{t('nav.backToForms')}</a>
      </p>
      <h1 ref={heading} tabIndex={-1}>
        {t('builder.headingOf', { title: (saved.value.form.title as string) || t('form.untitled') })}
      </h1>
      <BuilderSaveView
        state={save}
        unsaved={unsaved}
        onSave={saveNow}
        onLoadNewer={loadNewer}
        loadingNewer={loadingNewer}
        blocked={blocked}
      />
      {loadProblem !== undefined && <ProblemView error={loadProblem} />}
      <div class="builder-columns">
        <div class="builder-edit">
          <p class="modes" role="group" aria-label={t('builder.modes')}>
            <button type="button" aria-pressed={mode === 'builder'} onClick={() => switchTo('builder')}>
              {t('builder.modeBuilder')}
            </button>
            <button type="button" aria-pressed={mode === 'json'} onClick={() => switchTo('json')}>
              JSON
            </button>
          </p>
          {mode === 'json' ? (
            <BuilderJsonView
              text={jsonText}
              onText={(text) => {
                setJsonText(text);
                dispatch({ type: 'edited' });
              }}
              problems={refusal?.all ?? []}
            />
          ) : (
            <>
              <div class="field">
                <label for="builder-title">{t('builder.title')}</label>
                <input
                  id="builder-title"
                  type="text"
                  maxLength={500}
                  value={edited.title}
                  onInput={(event) => edit({ title: event.currentTarget.value })}
                />
              </div>
              <BuilderQuestionsView
                questions={edited.questions}
                problems={refusal?.byKey ?? {}}
                onChange={(questions) => edit({ questions })}
                newKey={newKey}
                focusLater={setFocusId}
              />
              <BuilderScreensView
                welcome={edited.welcome}
                ending={edited.ending}
                onWelcome={(welcome) => edit({ welcome })}
                onEnding={(ending) => edit({ ending })}
              />
              <BuilderHiddenView
                hidden={edited.hidden}
                onChange={(hidden) => edit({ hidden })}
                focusLater={setFocusId}
              />
              <BuilderThemeView
                themeHref={edited.themeHref}
                themes={themes}
                origin={location.origin}
                onChange={(themeHref) => edit({ themeHref })}
              />
            </>
          )}
        </div>
        {preview && <BuilderPreviewView address={preview} version={saved.value.etag} />}
      </div>
    </main>
  );
}
