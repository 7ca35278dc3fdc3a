import { ApiError } from './api.client';
import { canSave, nextSaveState, type SaveEvent, type SaveState } from './builder-save.flow';

const run = (events: SaveEvent[], from: SaveState = { kind: 'idle' }) => events.reduce(nextSaveState, from);
const stale = new ApiError(412, 'PRECONDITION_FAILED', 'The form changed.');
const invalid = new ApiError(
  400,
  'VALIDATION_ERROR',
  'Invalid form.',
  [],
  [{ field: 'fields[0].title', description: 'title is required' }],
);

describe("saving the builder's form", () => {
  it('saves, and an edit after a save is unsaved again', () => {
    expect(run([{ type: 'save' }])).toEqual({ kind: 'saving' });
    expect(run([{ type: 'save' }, { type: 'saved' }])).toEqual({ kind: 'saved' });
    expect(run([{ type: 'save' }, { type: 'saved' }, { type: 'edited' }])).toEqual({ kind: 'idle' });
  });

  it('sends one save at a time', () => {
    expect(canSave({ kind: 'saving' })).toBe(false);
    expect(run([{ type: 'save' }, { type: 'save' }])).toEqual({ kind: 'saving' });
    // An answer that arrives outside a save changes nothing.
    expect(run([{ type: 'saved' }])).toEqual({ kind: 'idle' });
    expect(run([{ type: 'failed', error: stale }])).toEqual({ kind: 'idle' });
  });

  it('stops at a conflict (412) until the newer version is loaded, never sending over it', () => {
    const conflict = run([{ type: 'save' }, { type: 'failed', error: stale }]);
    expect(conflict).toEqual({ kind: 'conflict' });
    expect(canSave(conflict)).toBe(false);
    expect(run([{ type: 'save' }, { type: 'edited' }], conflict)).toEqual({ kind: 'conflict' });
    const reloaded = run([{ type: 'loaded' }], conflict);
    expect(reloaded).toEqual({ kind: 'reloaded' });
    expect(canSave(reloaded)).toBe(true);
    expect(run([{ type: 'edited' }], reloaded)).toEqual({ kind: 'idle' });
  });

  it("keeps the API's refusal (400) on screen while the owner fixes it, and any other failure apart", () => {
    const refused = run([{ type: 'save' }, { type: 'failed', error: invalid }]);
    expect(refused).toEqual({ kind: 'refused', error: invalid });
    expect(run([{ type: 'edited' }], refused)).toBe(refused);
    expect(run([{ type: 'save' }], refused)).toEqual({ kind: 'saving' });
    const offline = new ApiError(0, 'NETWORK', 'The server could not be reached.');
    expect(run([{ type: 'save' }, { type: 'failed', error: offline }])).toEqual({
      kind: 'failed',
      error: offline,
    });
    expect(run([{ type: 'save' }, { type: 'failed', error: new Error('bug') }])).toMatchObject({
      kind: 'failed',
    });
    expect(run([{ type: 'loaded' }], refused)).toEqual({ kind: 'idle' });
  });
});
