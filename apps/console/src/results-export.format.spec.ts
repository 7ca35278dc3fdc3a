import {
  bytesInWords,
  cancelledInWords,
  doneInWords,
  exactTotal,
  progressInWords,
} from './results-export.format';

describe("the export's progress in words", () => {
  it('counts responses so far, of the total when it is known', () => {
    expect(progressInWords({ rows: 1, bytes: 10, resumes: 0 })).toBe('1 response so far.');
    expect(progressInWords({ rows: 12345, bytes: 10, resumes: 0 }, 1000000)).toBe(
      '12,345 responses so far of 1,000,000.',
    );
    expect(progressInWords({ bytes: 3 * 1024 * 1024, resumes: 0 })).toBe('3.0 MB of files so far.');
  });

  it('says that a broken export went on from where it broke', () => {
    expect(progressInWords({ rows: 7, bytes: 10, resumes: 1 }, 9)).toBe(
      '7 responses so far of 9. The connection broke once; the export went on after the last whole response, without starting over.',
    );
    expect(doneInWords({ rows: 9, bytes: 10, resumes: 2, fileName: 'f-responses.csv' }, 'download')).toBe(
      'The export of 9 responses is downloaded as f-responses.csv. The connection broke 2 times; the export went on after the last whole response, without starting over.',
    );
  });

  it('says where a whole export landed, and what a cancel leaves', () => {
    expect(doneInWords({ rows: 2, bytes: 10, resumes: 0, fileName: 'f.jsonl' }, 'file')).toBe(
      'The export of 2 responses is saved to f.jsonl.',
    );
    expect(doneInWords({ bytes: 2048, resumes: 0, fileName: 'f-files.tar' }, 'download')).toBe(
      'The files archive (2 KB) is downloaded as f-files.tar.',
    );
    expect(cancelledInWords({ rows: 3, bytes: 10, resumes: 0 })).toBe(
      'The export is cancelled after 3 responses; nothing is saved.',
    );
  });

  it('runs a progress bar only to an exact count', () => {
    expect(exactTotal(5000, false)).toBe(5000);
    expect(exactTotal(999, true)).toBe(999);
    expect(exactTotal(1000, true)).toBeUndefined();
  });

  it('says sizes in bytes, KB, MB and GB', () => {
    expect(bytesInWords(12)).toBe('12 bytes');
    expect(bytesInWords(1536)).toBe('2 KB');
    expect(bytesInWords(5 * 1024 ** 3)).toBe('5.00 GB');
  });
});
