import {
  answerInWords,
  answersById,
  dateInWords,
  fileNameOf,
  fileUrlOf,
  questionsOf,
  responseTypeInWords,
  totalInWords,
  wasSubmitted,
} from './response.format';

describe('answers in words', () => {
  const answer = (type: string, value: unknown, fieldType?: string) => ({
    field: { id: 'f', ref: 'r', type: fieldType },
    type,
    [type]: value,
  });

  it('shows text, email, addresses and numbers as they are', () => {
    expect(answerInWords(answer('text', 'Hello'))).toBe('Hello');
    expect(answerInWords(answer('email', 'ada@example.com'))).toBe('ada@example.com');
    expect(answerInWords(answer('url', 'https://example.com'))).toBe('https://example.com');
    expect(answerInWords(answer('phone_number', '+441234567890'))).toBe('+441234567890');
    expect(answerInWords(answer('number', 0))).toBe('0');
    expect(answerInWords(answer('number', 4.5))).toBe('4.5');
  });

  it('says yes or no, and accepted for a legal question', () => {
    expect(answerInWords(answer('boolean', true, 'yes_no'))).toBe('Yes');
    expect(answerInWords(answer('boolean', false, 'yes_no'))).toBe('No');
    expect(answerInWords(answer('boolean', true), { type: 'legal' })).toBe('Accepted');
    expect(answerInWords(answer('boolean', false, 'legal'))).toBe('Not accepted');
  });

  it('writes a day in words', () => {
    expect(answerInWords(answer('date', '2026-03-05'))).toBe('5 Mar 2026');
    expect(dateInWords('2026-12-31T00:00:00Z')).toBe('31 Dec 2026');
    expect(dateInWords('not a day')).toBe('not a day');
    expect(dateInWords('2026-13-01')).toBe('2026-13-01');
  });

  it('names choices by their labels, another choice by its text, a ranking in order', () => {
    expect(answerInWords(answer('choice', { id: 'c1', label: 'Red' }))).toBe('Red');
    expect(answerInWords(answer('choice', { other: 'Teal' }))).toBe('Other: Teal');
    expect(answerInWords(answer('choices', { labels: ['Red', 'Blue'], other: 'Teal' }))).toBe(
      'Red, Blue, Other: Teal',
    );
    expect(answerInWords(answer('choices', { labels: ['B', 'A'] }), { type: 'ranking' })).toBe('1. B, 2. A');
  });

  it('names a file by its name, and a recording by its kind', () => {
    const url = 'https://api.example/forms/f/responses/t/fields/q/files/abc-my%20cv.pdf';
    expect(answerInWords(answer('file_url', url))).toBe('abc-my cv.pdf');
    expect(fileNameOf('https://x/y/bad%E0')).toBe('bad%E0');
    expect(answerInWords(answer('multi_format', { format: 'audio', file_url: url }))).toBe(
      'Audio: abc-my cv.pdf',
    );
    expect(answerInWords(answer('multi_format', { format: 'text', text: 'Said in words' }))).toBe(
      'Said in words',
    );
    expect(fileUrlOf(answer('file_url', url))).toBe(url);
    expect(fileUrlOf(answer('multi_format', { format: 'video', file_url: url }))).toBe(url);
    expect(fileUrlOf(answer('text', 'x'))).toBeUndefined();
  });

  it('says a payment by its amount, payer and card', () => {
    expect(
      answerInWords(answer('payment', { amount: '12.50', name: 'Ada', last4: '4242', success: true })),
    ).toBe('12.50 by Ada (card ending 4242)');
    expect(answerInWords(answer('payment', { amount: '3', success: false }))).toBe('3 failed');
  });

  it('shows nothing for no answer, and JSON for a kind it does not know', () => {
    expect(answerInWords(undefined)).toBe('');
    expect(answerInWords({ type: 'text' })).toBe('');
    expect(answerInWords(answer('hologram', { depth: 3 }))).toBe('{"depth":3}');
  });
});

describe("a form's questions as the table's columns", () => {
  it('takes the questions in order, inner ones of a group and a block, without statements', () => {
    const questions = questionsOf([
      { id: 'a', ref: 'name', title: 'Name?', type: 'short_text' },
      { id: 's', title: 'Thanks', type: 'statement' },
      {
        id: 'g',
        title: 'About you',
        type: 'group',
        properties: { fields: [{ id: 'b', title: 'Age', type: 'number' }] },
      },
      {
        id: 'c',
        title: 'Contact',
        type: 'contact_info',
        properties: { fields: [{ id: 'c1', ref: 'email', title: '', type: 'email' }] },
      },
    ]);
    expect(questions).toEqual([
      { id: 'a', ref: 'name', title: 'Name?', type: 'short_text' },
      { id: 'b', ref: undefined, title: 'Age', type: 'number' },
      { id: 'c1', ref: 'email', title: 'Contact: email', type: 'email' },
    ]);
    expect(questionsOf(undefined)).toEqual([]);
  });

  it('finds each answer by its question id', () => {
    const found = answersById({
      token: 't',
      response_id: 't',
      landed_at: '',
      submitted_at: '',
      answers: [{ field: { id: 'a' }, type: 'text', text: 'x' }, { type: 'text' }],
    });
    expect([...found.keys()]).toEqual(['a']);
  });
});

describe("a response's state", () => {
  it('says completed, partial or started, and whether it was submitted', () => {
    expect(responseTypeInWords('completed')).toBe('Completed');
    expect(responseTypeInWords('partial')).toBe('Partial');
    expect(responseTypeInWords('started')).toBe('Started, nothing answered');
    expect(wasSubmitted({ response_type: 'completed', submitted_at: '2026-01-01T00:00:00Z' })).toBe(true);
    expect(wasSubmitted({ response_type: 'partial', submitted_at: '0001-01-01T00:00:00Z' })).toBe(false);
  });
});

describe('how many responses there are', () => {
  it('says the exact total of an unfiltered listing, and that a filtered count stops at its bound', () => {
    expect(totalInWords(51, false)).toBe('51 in all');
    expect(totalInWords(2, true)).toBe('2 matching');
    expect(totalInWords(1000, true)).toBe('1000 or more matching');
  });
});
