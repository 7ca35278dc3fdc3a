import { createHash } from 'node:crypto';
import { exportPageLimits, Subjects } from '@formline/contracts';
import {
  callApi,
  fetchReadingEarlyAnswer,
  sampleValue,
  scrapeMetrics,
  useTestRegions,
} from '@formline/testing';

// Export: every response of a form as JSON lines or CSV, filtered like the
// listing, resumable with `after`, pulled in bounded pages; the files of its
// responses as one tar archive. Only the form's region serves it.
describe('response export', () => {
  const fixture = useTestRegions({
    apps: ['gateway', 'global', 'responses', 'media'],
    extraEnv: ({ scratchDir }) => ({ FILE_STORAGE_DIR: scratchDir }),
    accounts: { owner: 'us', stranger: 'us' },
  });
  const { regions, api, accounts } = fixture;
  const { owner, stranger } = accounts;
  let base: string;
  let formId: string;
  let fileFieldId: string;
  const tokens: string[] = []; // oldest first
  const files = new Map<string, Buffer>(); // token -> the file its response answers with
  const texts = ['Ada', '=HYPERLINK("http://evil.example")', 'says "hi", then\nleaves', '@SUM(A1)', 'Zoe'];

  const exported = async (query: string, account = owner, region: 'us' | 'eu' = 'us') =>
    callApi(`${regions.baseUrl(region)}/forms/${formId}/responses/export?${query}`, { token: account.token });
  const lines = (text: string) =>
    text
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { token: string; answers: unknown[] });
  const listed = async (query: string) => {
    const page = await api(owner, 'GET', `/forms/${formId}/responses?page_size=1000&${query}`);
    expect(page.status).toBe(200);
    return page.body.items as Array<{ token: string }>;
  };

  beforeAll(async () => {
    base = regions.baseUrl('us');
    const created = await api(owner, 'POST', '/forms', {
      title: 'Export',
      fields: [
        { ref: 'name', title: 'Name', type: 'short_text' },
        { ref: 'age', title: 'Age', type: 'number' },
        {
          ref: 'colors',
          title: 'Colours',
          type: 'multiple_choice',
          properties: { allow_multiple_selection: true, choices: [{ label: 'Red' }, { label: 'Blue' }] },
        },
        { ref: 'cv', title: 'CV', type: 'file_upload' },
      ],
      hidden: ['source'],
    });
    expect(created.status).toBe(201);
    formId = created.body.id;
    fileFieldId = (created.body.fields as Array<{ id: string; ref: string }>).find((f) => f.ref === 'cv')!.id;
    for (const [n, text] of texts.entries()) {
      const answers: unknown[] = [
        { field: { ref: 'name' }, type: 'text', text },
        { field: { ref: 'age' }, type: 'number', number: n === 1 ? -5 : 20 + n },
        {
          field: { ref: 'colors' },
          type: 'choices',
          choices: { labels: n % 2 ? ['Red', 'Blue'] : ['Blue'] },
        },
      ];
      let file: Buffer | undefined;
      if (n === 0 || n === 3) {
        file = Buffer.from(`file of response ${n}\n`.repeat(40 * (n + 1)));
        const upload = await fetchReadingEarlyAnswer(
          `${base}/forms/${formId}/files/${fileFieldId}?filename=cv-${n}.txt`,
          {
            method: 'POST',
            headers: { 'content-type': 'application/octet-stream', authorization: `bearer ${owner.token}` },
            body: file,
          },
        );
        expect(upload.status).toBe(201);
        answers.push({
          field: { ref: 'cv' },
          type: 'file_url',
          file_url: ((await upload.json()) as { file_url: string }).file_url,
        });
      }
      const submitted = await callApi(`${base}/forms/${formId}/submissions`, {
        method: 'POST',
        body: { answers, hidden: { source: n === 2 ? 'partner' : 'ads' } },
      });
      expect(submitted.status).toBe(201);
      tokens.push(submitted.body.token);
      if (file) files.set(submitted.body.token, file);
      await new Promise((resolve) => setTimeout(resolve, 5)); // distinct submission times
    }
  });

  it('writes every response as a JSON line, as the listing shows it, oldest first', async () => {
    const answer = await exported('format=jsonl');
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toMatch(/^application\/x-ndjson/);
    expect(answer.headers.get('content-disposition')).toBe(
      `attachment; filename="${formId}-responses.jsonl"`,
    );
    expect(answer.text.endsWith('\n')).toBe(true);
    expect(lines(answer.text)).toEqual(await listed('sort=submitted_at,asc'));
    expect(lines(answer.text).map((line) => line.token)).toEqual(tokens);
    // JSON lines is the default; the listing's sort applies.
    expect(lines((await exported('')).text)).toEqual(lines(answer.text));
    expect(lines((await exported('sort=submitted_at,desc')).text)).toEqual(await listed(''));
  });

  it('applies the listing filters', async () => {
    for (const query of [
      'query=partner',
      `included_response_ids=${tokens[1]},${tokens[3]}`,
      `excluded_response_ids=${tokens[0]}`,
      'answered_fields=cv',
      'fields=name',
      'response_type=partial',
      `since=${Math.floor(Date.now() / 1000) + 3600}`,
    ]) {
      expect(lines((await exported(query)).text)).toEqual(await listed(`sort=submitted_at,asc&${query}`));
    }
    expect(lines((await exported('query=partner')).text).map((line) => line.token)).toEqual([tokens[2]]);
  });

  it('resumes after a token, and refuses one that names no response of the form', async () => {
    expect(lines((await exported(`after=${tokens[1]}`)).text).map((line) => line.token)).toEqual(
      tokens.slice(2),
    );
    expect(
      lines((await exported(`after=${tokens[3]}&sort=submitted_at,desc`)).text).map((line) => line.token),
    ).toEqual(tokens.slice(0, 3).reverse());
    const unknown = await exported('after=0123456789abcdef0123456789abcdef');
    expect(unknown.status).toBe(400);
    expect(unknown.body.details[0]).toMatchObject({ field: 'after', in: 'query' });
    expect((await exported('page_size=10')).status).toBe(400);
  });

  it('writes CSV with a column per question, quoted as RFC 4180 says, safe to open in a spreadsheet', async () => {
    const answer = await exported('format=csv');
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    // A UTF-8 byte order mark first (which text decoding drops), for spreadsheets.
    const raw = await fetch(`${base}/forms/${formId}/responses/export?format=csv`, {
      headers: { authorization: `bearer ${owner.token}` },
    });
    expect([...new Uint8Array(await raw.arrayBuffer()).subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const [header, ...rows] = parseCsv(answer.text);
    expect(header).toEqual([
      'token',
      'response_type',
      'landed_at',
      'submitted_at',
      'Name',
      'Age',
      'Colours',
      'CV',
      'hidden.source',
      'variables.score',
      'variables.price',
      'ending',
      'metadata.user_agent',
      'metadata.platform',
      'metadata.referer',
      'metadata.network_id',
      'metadata.browser',
    ]);
    expect(rows.map((row) => row[0])).toEqual(tokens);
    const column = (name: string) => rows.map((row) => row[header.indexOf(name)]);
    expect(column('Name')).toEqual([
      'Ada',
      `'=HYPERLINK("http://evil.example")`,
      'says "hi", then\nleaves',
      `'@SUM(A1)`,
      'Zoe',
    ]);
    // A negative number is a number, not a formula.
    expect(column('Age')).toEqual(['20', '-5', '22', '23', '24']);
    expect(column('Colours')).toEqual(['Blue', 'Red, Blue', 'Blue', 'Red, Blue', 'Blue']);
    expect(column('hidden.source')).toEqual(['ads', 'ads', 'partner', 'ads', 'ads']);
    expect(column('CV')[0]).toMatch(new RegExp(`/forms/${formId}/responses/${tokens[0]}/fields/`));
    const jsonl = lines((await exported('')).text) as unknown as Array<{ submitted_at: string }>;
    expect(column('submitted_at')).toEqual(jsonl.map((line) => line.submitted_at));
    // The raw text: CRLF line ends, quotes doubled inside a quoted cell.
    expect(answer.text).toContain('"says ""hi"", then\nleaves"');
    expect(answer.text.split('\r\n')).toHaveLength(texts.length + 2);
    // Filters and resume apply to CSV as well.
    const resumed = parseCsv((await exported(`format=csv&after=${tokens[2]}`)).text);
    expect(resumed.slice(1).map((row) => row[0])).toEqual(tokens.slice(3));
  });

  it('pulls pages bounded in bytes, byte for byte the listing, and stops pulling when the client goes', async () => {
    const big = await api(owner, 'POST', '/forms', {
      title: 'Large answers',
      fields: Array.from({ length: 30 }, (_, i) => ({ ref: `q${i}`, title: `Q${i}`, type: 'long_text' })),
    });
    // 48 responses of 270 kB each: four never fit one page, and the whole
    // export (13 MB) is many pages, more than the sockets between the apps
    // and the client buffer. One is submitted; the others are copied from it
    // in SQL, a second apart, so that the region's event stream does not
    // carry 13 MB that other specs read whole.
    const count = 48;
    const submitted = await callApi(`${base}/forms/${big.body.id}/submissions`, {
      method: 'POST',
      body: {
        answers: Array.from({ length: 30 }, (_, i) => ({
          field: { ref: `q${i}` },
          type: 'text',
          text: `${i % 10}`.repeat(9000),
        })),
      },
    });
    expect(submitted.status).toBe(201);
    const first: string = submitted.body.token;
    await fixture.responsesDb.us.$executeRaw`
      INSERT INTO responses (id, form_id, account_id, response_type, landed_at, submitted_at, payload,
                             search_text, answered_fields, created_at)
      SELECT copy.id, r.form_id, r.account_id, r.response_type, r.landed_at + n * interval '1 second',
             r.submitted_at + n * interval '1 second', replace(r.payload::text, r.id, copy.id)::json,
             r.search_text, r.answered_fields, r.created_at
        FROM responses r, generate_series(1, ${count - 1}::int) AS n, LATERAL (SELECT md5(r.id || n) AS id) copy
       WHERE r.id = ${first}`;
    const bigTokens = [first, ...Array.from({ length: count - 1 }, (_, n) => md5(`${first}${n + 1}`))];
    const pagesAsked = async () =>
      sampleValue(
        (await scrapeMetrics(regions.stacks.us!.settings.opsPorts.gateway)).samples,
        'formline_nats_request_duration_seconds_count',
        { subject: Subjects.responsesResponseExportPage },
      );
    const url = `${base}/forms/${big.body.id}/responses/export?sort=landed_at,asc`;
    const earlier = await pagesAsked();
    const answer = await callApi(url, { token: owner.token });
    expect(answer.status).toBe(200);
    const all = lines(answer.text);
    expect(all.map((line) => line.token)).toEqual(bigTokens);
    expect(all.every((line) => line.answers.length === 30)).toBe(true);
    // Pages near their bound and none over it: the export took at least as
    // many pages as its bytes need, and one per three responses (four are
    // over the bound), with perhaps a last empty one.
    const whole = (await pagesAsked()) - earlier;
    expect(whole).toBeGreaterThanOrEqual(Math.ceil(Buffer.byteLength(answer.text) / exportPageLimits.bytes));
    expect(whole).toBeLessThanOrEqual(count / 3 + 1);

    // Byte for byte the listing's items, each as JSON on a line of its own
    // (the listing pages with `before`, newest first): nothing lost, added or
    // escaped where one page ends and the next begins.
    const listedItems: unknown[] = [];
    for (let last: string | undefined; ;) {
      const page = await api(
        owner,
        'GET',
        `/forms/${big.body.id}/responses?page_size=1000${last ? `&before=${last}` : ''}`,
      );
      const items = page.body.items as Array<{ token: string }>;
      if (items.length === 0) break;
      listedItems.push(...items);
      last = items[items.length - 1].token;
    }
    expect(listedItems).toHaveLength(count);
    const raw = await fetch(`${base}/forms/${big.body.id}/responses/export`, {
      headers: { authorization: `bearer ${owner.token}` },
    });
    const expected = `${listedItems
      .reverse()
      .map((item) => JSON.stringify(item))
      .join('\n')}\n`;
    expect(Buffer.from(await raw.arrayBuffer()).equals(Buffer.from(expected))).toBe(true);

    const before = await pagesAsked();
    const reading = new AbortController();
    const cut = await fetch(url, {
      headers: { authorization: `bearer ${owner.token}` },
      signal: reading.signal,
    });
    await cut.body!.getReader().read();
    reading.abort();
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const asked = (await pagesAsked()) - before;
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect((await pagesAsked()) - before).toBe(asked);
    expect(asked).toBeLessThan(whole);
  });

  it('is served by the form region only, to whoever reads its responses', async () => {
    const elsewhere = await exported('', owner, 'eu');
    expect(elsewhere.status).toBe(421);
    expect(elsewhere.body.code).toBe('WRONG_REGION');
    expect(elsewhere.body.description).toContain(`${base}/forms/${formId}/responses/export`);
    expect(
      (await callApi(`${regions.baseUrl('eu')}/forms/${formId}/responses/files`, { token: owner.token }))
        .status,
    ).toBe(421);
    const strangers = await exported('', stranger);
    expect(strangers.status).toBe(404);
    expect(strangers.body.code).toBe('FORM_NOT_FOUND');
    expect((await callApi(`${base}/forms/${formId}/responses/files`, { token: stranger.token })).status).toBe(
      404,
    );
    expect((await callApi(`${base}/forms/${formId}/responses/export`)).status).toBe(401);
    expect((await callApi(`${base}/forms/${formId}/responses/files`)).status).toBe(401);
  });

  it('archives the files of the selected responses as one tar, byte for byte', async () => {
    const answer = await fetch(`${base}/forms/${formId}/responses/files`, {
      headers: { authorization: `bearer ${owner.token}` },
    });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('application/x-tar');
    const entries = readTar(Buffer.from(await answer.arrayBuffer()));
    expect(entries.map((entry) => entry.name.split('/')[0])).toEqual([tokens[0], tokens[3]]);
    for (const entry of entries) {
      const [token, field, name] = entry.name.split('/');
      expect(field).toBe(fileFieldId);
      expect(name).toMatch(/^[A-Za-z0-9]{16}-cv-\d\.txt$/);
      expect(entry.body.equals(files.get(token)!)).toBe(true);
    }
    const filtered = await fetch(
      `${base}/forms/${formId}/responses/files?excluded_response_ids=${tokens[0]}`,
      {
        headers: { authorization: `bearer ${owner.token}` },
      },
    );
    expect(
      readTar(Buffer.from(await filtered.arrayBuffer())).map((entry) => entry.name.split('/')[0]),
    ).toEqual([tokens[3]]);
  });
});

const md5 = (text: string) => createHash('md5').update(text).digest('hex');

// RFC 4180, as a spreadsheet reads it: quoted cells may hold commas, quotes
// (doubled) and line breaks; records end with CRLF.
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (quoted) {
      if (char === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (char === '"') quoted = false;
      else cell += char;
    } else if (char === '"') quoted = true;
    else if (char === ',') {
      row.push(cell);
      cell = '';
    } else if (char === '\r' && text[i + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      i++;
    } else cell += char;
  }
  expect(cell).toBe('');
  expect(row).toEqual([]);
  return rows;
}

// A tar archive's entries: 512-byte headers (a pax header naming the next
// entry when its name is long), bytes padded to 512, two empty blocks at the end.
function readTar(archive: Buffer): Array<{ name: string; body: Buffer }> {
  const entries: Array<{ name: string; body: Buffer }> = [];
  let offset = 0;
  let longName: string | undefined;
  for (;;) {
    const header = archive.subarray(offset, offset + 512);
    if (header.every((byte) => byte === 0)) break;
    const field = (start: number, length: number) =>
      header
        .subarray(start, start + length)
        .toString('utf8')
        .split('\0')[0];
    let sum = 0;
    header.forEach((byte, i) => (sum += i >= 148 && i < 156 ? 32 : byte));
    expect(parseInt(field(148, 8), 8)).toBe(sum);
    expect(field(257, 6)).toBe('ustar');
    const size = parseInt(field(124, 12), 8);
    const body = archive.subarray(offset + 512, offset + 512 + size);
    offset += 512 + Math.ceil(size / 512) * 512;
    if (field(156, 1) === 'x') {
      longName = /path=(.*)\n/.exec(body.toString('utf8'))?.[1];
      continue;
    }
    entries.push({ name: longName ?? field(0, 100), body: Buffer.from(body) });
    longName = undefined;
  }
  expect(archive.length).toBe(offset + 1024);
  return entries;
}
