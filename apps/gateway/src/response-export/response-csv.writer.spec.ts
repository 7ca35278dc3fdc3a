import type { ResponseResource } from '@formline/contracts';
import type { FormDefinition } from '@formline/form-definition';
import { answerText, csvCell, ResponseCsvWriter } from './response-csv.writer';

const field = (id: string, type: string, title: string, inner: unknown[] = []) => ({
  id,
  ref: `${id}-ref`,
  type,
  title,
  properties: inner.length ? { fields: inner } : {},
});

const definition = {
  fields: [
    field('f1', 'short_text', 'Name'),
    field('f2', 'statement', 'Thanks'),
    field('g1', 'group', 'About you', [field('f3', 'number', 'Age'), field('f4', 'multiple_choice', '')]),
    field('c1', 'contact_info', 'Contact', [field('f5', 'email', 'Email')]),
  ],
  hidden: ['source'],
  variables: { score: 0, price: 0 },
} as unknown as FormDefinition;

const response = (
  token: string,
  answers: unknown[],
  extra: Record<string, unknown> = {},
): ResponseResource => ({
  token,
  response_id: token,
  response_type: 'completed',
  landed_at: '2026-11-27T07:00:00Z',
  submitted_at: '2026-11-27T07:00:05Z',
  answers,
  hidden: { source: 'ads' },
  variables: [
    { key: 'price', type: 'number', number: 12.5 },
    { key: 'score', type: 'number', number: 3 },
  ],
  ending: { id: 'e', ref: 'default' },
  metadata: { user_agent: 'UA, v1', platform: 'other', referer: '', network_id: '', browser: 'default' },
  ...extra,
});

describe('ResponseCsvWriter', () => {
  it('has a column per answerable question in form order (inner fields, not their blocks), then hidden, variables, ending, metadata', () => {
    const header = new ResponseCsvWriter(definition).header();
    expect(header).toBe(
      '\uFEFFtoken,response_type,landed_at,submitted_at,Name,Age,f4-ref,Email,hidden.source,' +
        'variables.score,variables.price,ending,metadata.user_agent,metadata.platform,metadata.referer,' +
        'metadata.network_id,metadata.browser\r\n',
    );
  });

  it('writes one CRLF-ended row a response, cells where their questions are', () => {
    const rows = new ResponseCsvWriter(definition).rows([
      response('t1', [
        { field: { id: 'f3' }, type: 'number', number: 41 },
        { field: { id: 'f1' }, type: 'text', text: 'Ada' },
        { field: { id: 'f4' }, type: 'choices', choices: { labels: ['Red', 'Blue'], other: 'Teal' } },
      ]),
      response('t2', []),
    ]);
    expect(rows).toBe(
      't1,completed,2026-11-27T07:00:00Z,2026-11-27T07:00:05Z,Ada,41,"Red, Blue, Teal",,ads,3,12.5,default,"UA, v1",other,,,default\r\n' +
        't2,completed,2026-11-27T07:00:00Z,2026-11-27T07:00:05Z,,,,,ads,3,12.5,default,"UA, v1",other,,,default\r\n',
    );
  });

  it('keeps only the questions `fields` names', () => {
    expect(new ResponseCsvWriter(definition, ['f3-ref']).header()).toContain(
      ',submitted_at,Age,hidden.source,',
    );
  });
});

describe('csvCell', () => {
  it.each([
    ['plain', 'plain'],
    ['', ''],
    ['a,b', '"a,b"'],
    ['say "hi"', '"say ""hi"""'],
    ['two\nlines', '"two\nlines"'],
    ['cr\ronly', '"cr\ronly"'],
  ])('quotes %j as RFC 4180 says', (value, cell) => {
    expect(csvCell(value)).toBe(cell);
  });

  it.each([
    ['=1+2', "'=1+2"],
    ['+cmd|calc', "'+cmd|calc"],
    ['-2+3', "'-2+3"],
    ['@SUM(A1)', "'@SUM(A1)"],
    ['\tx', "'\tx"],
    ['\rx', `"'\rx"`],
    ['=HYPERLINK("a","b")', `"'=HYPERLINK(""a"",""b"")"`],
  ])('makes %j text, not a formula', (value, cell) => {
    expect(csvCell(value)).toBe(cell);
  });

  it.each(['-5', '+33', '-1.5', '2e10', '-0.25E-3'])('leaves the number %j as it is', (value) => {
    expect(csvCell(value)).toBe(value);
  });
});

describe('answerText', () => {
  it.each([
    [{ type: 'text', text: 'x' }, 'x'],
    [{ type: 'number', number: 0 }, '0'],
    [{ type: 'boolean', boolean: false }, 'false'],
    [{ type: 'choice', choice: { label: 'Red' } }, 'Red'],
    [{ type: 'choice', choice: { other: 'Mauve' } }, 'Mauve'],
    [{ type: 'choices', choices: { labels: ['A', 'B'] } }, 'A, B'],
    [{ type: 'payment', payment: { amount: '12.50', last4: '4242', name: 'A', success: true } }, '12.50'],
    [{ type: 'multi_format', multi_format: { file_url: 'https://f/x' } }, 'https://f/x'],
    [{ type: 'future', future: { a: 1 } }, '{"a":1}'],
    [undefined, ''],
  ])('reads %j as %j', (answer, text) => {
    expect(answerText(answer)).toBe(text);
  });
});
