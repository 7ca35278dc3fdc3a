import { type PartialBody, progressSender } from './partial-progress.sender';

// When the respondent's page sends partial responses (its browser test sees
// one arrive at a webhook; here, every rule of when, with a fake network).
describe('the page sending partial responses', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  const setup = (settings: Parameters<typeof progressSender>[0]['settings']) => {
    let answers: unknown[] = [];
    const sent: PartialBody[] = [];
    const pending: Array<{ resolve: () => void; reject: (error: Error) => void }> = [];
    const sender = progressSender({
      url: 'https://eu.example/forms/f1/submissions/partial',
      settings,
      autosaveDelayMs: 1000,
      body: () => ({ progress_key: 'k'.repeat(32), landed_at: '2026-11-23T10:00:00Z', hidden: {}, answers }),
      post: (_url, body) => {
        sent.push(JSON.parse(body) as PartialBody);
        return new Promise<void>((resolve, reject) => pending.push({ resolve, reject }));
      },
    });
    const answer = (text: string) => (answers = [...answers, { text }]);
    const settle = async (error?: Error) => {
      const next = pending.shift()!;
      if (error) next.reject(error);
      else next.resolve();
      await Promise.resolve();
      await Promise.resolve();
      await Promise.resolve();
    };
    return { sender, sent, answer, settle };
  };

  it('sends at once when the milestone block is confirmed, even with autosave off', () => {
    const { sender, sent, answer } = setup({ autosave_progress: false, milestones: [{ field_ref: 'm' }] });
    answer('a');
    sender.confirmed('q1');
    jest.advanceTimersByTime(10_000);
    expect(sent).toHaveLength(0);
    answer('b');
    sender.confirmed('m');
    expect(sent).toHaveLength(1);
    expect(sent[0].answers).toEqual([{ text: 'a' }, { text: 'b' }]);
  });

  it('autosaves once, after the respondent pauses', () => {
    const { sender, sent, answer } = setup({});
    answer('a');
    sender.confirmed('q1');
    answer('b');
    sender.confirmed('q2');
    jest.advanceTimersByTime(999);
    expect(sent).toHaveLength(0);
    jest.advanceTimersByTime(1);
    expect(sent).toHaveLength(1);
    expect(sent[0].answers).toHaveLength(2);
    sender.flush(); // nothing waits: nothing sent
    expect(sent).toHaveLength(1);
  });

  it('sends what waits at once when the page is hidden or left', () => {
    const { sender, sent, answer } = setup({});
    answer('a');
    sender.confirmed('q1');
    sender.flush();
    expect(sent).toHaveLength(1);
    jest.advanceTimersByTime(10_000);
    expect(sent).toHaveLength(1);
  });

  it('sends one save at a time, the latest answers next, and never the same save twice', async () => {
    const { sender, sent, answer, settle } = setup({ milestones: [{ field_ref: 'm' }] });
    answer('a');
    sender.confirmed('m');
    answer('b');
    sender.confirmed('q2');
    sender.flush(); // while the first save is on its way
    expect(sent).toHaveLength(1);
    await settle();
    expect(sent).toHaveLength(2);
    expect(sent[1].answers).toEqual([{ text: 'a' }, { text: 'b' }]);
    await settle();
    sender.confirmed('m'); // the same answers again
    expect(sent).toHaveLength(2);
  });

  it('sends a failed save again with the next one', async () => {
    const { sender, sent, answer, settle } = setup({ milestones: [{ field_ref: 'm' }] });
    answer('a');
    sender.confirmed('m');
    await settle(new Error('offline'));
    sender.confirmed('m');
    expect(sent).toHaveLength(2);
  });

  it('sends nothing once the final submission is on its way, and nothing for a form without partials', () => {
    const { sender, sent, answer } = setup({});
    answer('a');
    sender.confirmed('q1');
    sender.stop();
    jest.advanceTimersByTime(10_000);
    sender.flush();
    expect(sent).toHaveLength(0);

    const off = setup({ autosave_progress: false });
    off.answer('a');
    off.sender.confirmed('q1');
    jest.advanceTimersByTime(10_000);
    off.sender.flush();
    expect(off.sent).toHaveLength(0);
  });
});
