import { ApiError } from './api.client';
import type { SaveState } from './builder-save.flow';
import { ProblemView } from './problem.view';
import { useTexts } from './texts.context';

interface Props {
  state: SaveState;
  unsaved: boolean;
  onSave: () => void;
  onLoadNewer: () => void;
  loadingNewer: boolean;
  /** Why the text cannot be sent (the JSON view's text is not JSON), said before any request. */
  blocked?: string;
}

// Where saving stands, in words: the Save button, a status line, and what
// stops a save. A conflict (someone saved since) is said with the one way
// on: loading the newer version, which drops the edits here; the builder
// never writes over it.
export function BuilderSaveView({ state, unsaved, onSave, onLoadNewer, loadingNewer, blocked }: Props) {
  const { t } = useTexts();
  const status =
    state.kind === 'saving'
      ? t('action.saving')
      : state.kind === 'saved' && !unsaved
        ? t('save.saved')
        : state.kind === 'reloaded'
          ? t('save.reloaded')
          : unsaved
            ? t('save.unsaved')
            : t('save.unchanged');
  return (
    <div class="save-bar">
      <p class="actions">
        <button
          type="button"
          class="primary"
          disabled={state.kind === 'saving' || state.kind === 'conflict'}
          onClick={onSave}
        >
          {t('save.button')}
        </button>
        <span role="status">{status}</span>
      </p>
      {blocked && (
        <p class="problem" role="alert">
          {blocked}
        </p>
      )}
      {state.kind === 'conflict' && (
        <div class="problem conflict" role="alert">
          <p>{t('save.conflict')}</p>
          <p>
            <button type="button" disabled={loadingNewer} onClick={onLoadNewer}>
              {t('save.loadNewer')}
            </button>
          </p>
        </div>
      )}
      {(state.kind === 'refused' || state.kind === 'failed') && <ProblemView error={state.error} />}
      {state.kind === 'refused' &&
        state.error instanceof ApiError &&
        state.error.fieldProblems.length > 5 && <p class="hint">{t('save.problemsHint')}</p>}
    </div>
  );
}
