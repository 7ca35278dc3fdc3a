import { localInputValue, replayWindowOf } from './replay-window.mapper';

describe('the window of "Replay failed deliveries"', () => {
  it("sends the inputs' local times in UTC, until only when given", () => {
    expect(replayWindowOf('2026-01-01T10:30', '')).toEqual({
      ok: true,
      body: { since: new Date(2026, 0, 1, 10, 30).toISOString() },
    });
    // An end to the minute takes the whole minute.
    expect(replayWindowOf('2026-01-01T10:30', '2026-01-01T11:00')).toMatchObject({
      body: { until: new Date(2026, 0, 1, 11, 0, 59).toISOString() },
    });
    expect(replayWindowOf('2026-01-01T10:30', '2026-01-02T08:00:15')).toEqual({
      ok: true,
      body: {
        since: new Date(2026, 0, 1, 10, 30).toISOString(),
        until: new Date(2026, 0, 2, 8, 0, 15).toISOString(),
      },
    });
  });

  it('says what is wrong with a window it cannot send', () => {
    expect(replayWindowOf('', '')).toEqual({
      ok: false,
      message: 'Give the date and time the window starts.',
    });
    expect(replayWindowOf('2026-01-01T10:30', 'soon')).toEqual({
      ok: false,
      message: 'The end of the window is not a date and time.',
    });
    expect(replayWindowOf('2026-01-02T10:30', '2026-01-01T10:30')).toEqual({
      ok: false,
      message: 'The window ends before it starts.',
    });
    expect(replayWindowOf('2026-13-45T99:99', '').ok).toBe(false);
  });

  it("writes a moment as the input's value, in the browser's time", () => {
    const value = localInputValue(new Date(2026, 4, 3, 7, 5, 59));
    expect(value).toBe('2026-05-03T07:05');
    expect(replayWindowOf(value, '')).toEqual({
      ok: true,
      body: { since: new Date(2026, 4, 3, 7, 5).toISOString() },
    });
  });
});
