import { type BuiltPage, ExportReadAhead } from './response-export.read-ahead';

// Pages read ahead are bounded in number and in time, and each is taken once.
describe('ExportReadAhead', () => {
  const none = () => Promise.resolve<BuiltPage>({ rows: 0, body: Buffer.alloc(0) });

  it('hands a page read ahead to the one ask that takes it', () => {
    const ahead = new ExportReadAhead();
    ahead.start('a', 10, none);
    expect(ahead.take('a')?.limit).toBe(10);
    expect(ahead.take('a')).toBeUndefined();
    expect(ahead.take('b')).toBeUndefined();
  });

  it('keeps at most eight pages, letting the oldest go', () => {
    const ahead = new ExportReadAhead();
    for (let i = 0; i < 9; i++) ahead.start(`p${i}`, i, none);
    expect(ahead.take('p0')).toBeUndefined();
    for (let i = 1; i < 9; i++) expect(ahead.take(`p${i}`)?.limit).toBe(i);
  });

  it('lets a page go once it has waited five seconds', () => {
    jest.useFakeTimers();
    try {
      const ahead = new ExportReadAhead();
      ahead.start('a', 1, none);
      ahead.start('b', 1, none);
      jest.advanceTimersByTime(4999);
      expect(ahead.take('a')).toBeDefined();
      jest.advanceTimersByTime(1);
      expect(ahead.take('b')).toBeUndefined();
    } finally {
      jest.useRealTimers();
    }
  });

  it('keeps a failed read for the ask that takes it, unheard until then', async () => {
    const ahead = new ExportReadAhead();
    ahead.start('a', 1, () => Promise.reject(new Error('database away')));
    await new Promise((resolve) => setTimeout(resolve, 10));
    await expect(ahead.take('a')!.page).rejects.toThrow('database away');
  });
});
