import { ApiError } from './api.client';

// Saving the builder's form, as a state machine the screen follows. A save is
// a PUT with If-Match: when someone saved the form since it was loaded, the
// API answers 412 and the builder stops there. Nothing is ever sent over the
// newer version: saving again is refused until the owner loads it (and so
// chooses to drop the edits here), which is the only way out of a conflict.

export type SaveState =
  /** Nothing sent since the form was loaded or last saved (edits may be pending). */
  | { kind: 'idle' }
  | { kind: 'saving' }
  | { kind: 'saved' }
  /** Someone saved the form since: load the newer version to go on. */
  | { kind: 'conflict' }
  /** The API refused the form (400): its details say where. */
  | { kind: 'refused'; error: ApiError }
  /** Anything else: the network, the sign-in, the server. */
  | { kind: 'failed'; error: unknown }
  /** The newer version was loaded after a conflict, replacing the edits here. */
  | { kind: 'reloaded' };

export type SaveEvent =
  | { type: 'save' }
  | { type: 'saved' }
  | { type: 'failed'; error: unknown }
  | { type: 'edited' }
  | { type: 'loaded' };

export function canSave(state: SaveState): boolean {
  return state.kind !== 'saving' && state.kind !== 'conflict';
}

export function nextSaveState(state: SaveState, event: SaveEvent): SaveState {
  switch (event.type) {
    case 'save':
      return canSave(state) ? { kind: 'saving' } : state;
    case 'saved':
      return state.kind === 'saving' ? { kind: 'saved' } : state;
    case 'failed': {
      if (state.kind !== 'saving') return state;
      const { error } = event;
      if (error instanceof ApiError && error.status === 412) return { kind: 'conflict' };
      if (error instanceof ApiError && error.status === 400) return { kind: 'refused', error };
      return { kind: 'failed', error };
    }
    case 'edited':
      // An edit after a save makes the form unsaved again; a refusal and a
      // conflict stay on screen until the next save or load.
      return state.kind === 'saved' || state.kind === 'reloaded' ? { kind: 'idle' } : state;
    case 'loaded':
      return state.kind === 'conflict' ? { kind: 'reloaded' } : { kind: 'idle' };
  }
}
