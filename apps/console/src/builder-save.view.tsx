import { ApiError } from './api.client';
import type { SaveState } from './builder-save.flow';
import { ProblemView } from './problem.view';

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
  const status =
    state.kind === 'saving'
      ? 'Saving…'
      : state.kind === 'saved' && !unsaved
        ? 'Saved. The preview shows this version.'
        : state.kind === 'reloaded'
          ? 'The newer version is loaded; the changes made here before it were not kept.'
          : unsaved
            ? 'Changes not saved yet.'
            : 'No changes since the last save.';
  return (
    <div class="save-bar">
      <p class="actions">
        <button
          type="button"
          class="primary"
          disabled={state.kind === 'saving' || state.kind === 'conflict'}
          onClick={onSave}
        >
          Save
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
          <p>
            Someone saved this form after you loaded it. Your changes are not saved: saving them would
            overwrite theirs.
          </p>
          <p>
            <button type="button" disabled={loadingNewer} onClick={onLoadNewer}>
              Load the newer version (your changes here are dropped)
            </button>
          </p>
        </div>
      )}
      {(state.kind === 'refused' || state.kind === 'failed') && <ProblemView error={state.error} />}
      {state.kind === 'refused' &&
        state.error instanceof ApiError &&
        state.error.fieldProblems.length > 5 && (
          <p class="hint">Each problem is also shown at its question, or at its line in the JSON view.</p>
        )}
    </div>
  );
}
