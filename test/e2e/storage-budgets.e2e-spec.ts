import { randomInt } from 'node:crypto';
import {
  basicAuthorization,
  callApi,
  fetchReadingEarlyAnswer,
  rawRequest,
  sendReadingEarlyAnswer,
  useTestRegions,
} from '@formline/testing';

// What one greedy client may store: respondents' uploads count their bytes
// and files against the client address and the form without a token, against
// the token's account with one; a declared size that does not fit is refused
// 429 before the body is read, a body without a declared size is refused 411
// (nothing to reserve), and an upload that stores nothing gives its share
// back. An account holds a bounded number of live personal tokens, and of
// OAuth applications.
//
// The gateway trusts 127.0.0.1 as its proxy, so each test speaks for clients
// of its own (X-Forwarded-For, random per run: the region's Redis keeps the
// counts of earlier runs for the window).
describe('storage budgets', () => {
  const kib = 1024;
  const fixture = useTestRegions({
    regions: ['us'],
    apps: ['gateway', 'global', 'responses', 'media'],
    extraEnv: ({ scratchDir }) => ({
      FILE_STORAGE_DIR: scratchDir,
      TRUSTED_PROXIES: '127.0.0.1',
      FILE_MAX_BYTES: String(256 * kib),
      UPLOAD_BUDGET_WINDOW_MS: '60000',
      UPLOAD_BYTES_PER_ADDRESS: String(300 * kib),
      UPLOAD_FILES_PER_ADDRESS: '5',
      UPLOAD_BYTES_PER_FORM: String(500 * kib),
      UPLOAD_FILES_PER_FORM: '8',
      UPLOAD_BYTES_PER_ACCOUNT: String(300 * kib),
      UPLOAD_FILES_PER_ACCOUNT: '5',
      PERSONAL_TOKENS_PER_ACCOUNT: '4',
      OAUTH_APPLICATIONS_PER_ACCOUNT: '3',
      // Six creations at once, each with a password check: one at a time (the
      // default) could outlast the services' request deadline on a loaded test
      // machine and shed one with 503, which is not what this spec is about.
      PASSWORD_CHECK_CONCURRENCY: '6',
    }),
    accounts: {
      alice: 'us',
      carol: { region: 'us', password: 'carol-password-1' },
    },
  });
  const { regions, accounts } = fixture;
  const { alice, carol } = accounts;
  const base = () => regions.baseUrl('us');
  const run = randomInt(256);
  let clients = 0;
  const newClient = () => `198.19.${run}.${++clients}`;

  const newUploadForm = async (): Promise<string> => {
    const created = await callApi(`${base()}/forms`, {
      token: alice.token,
      method: 'POST',
      body: { title: 'Files', fields: [{ ref: 'cv', title: 'Your CV', type: 'file_upload' }] },
    });
    expect(created.status).toBe(201);
    return created.body.id as string;
  };
  const upload = (formId: string, client: string, bytes: number, options: { token?: string } = {}) =>
    fetchReadingEarlyAnswer(`${base()}/forms/${formId}/files/cv?filename=cv.pdf`, {
      method: 'POST',
      headers: {
        'content-type': 'application/octet-stream',
        'x-forwarded-for': client,
        ...(options.token && { authorization: `bearer ${options.token}` }),
      },
      body: Buffer.alloc(bytes, 0x61),
    });
  const expectRefused = async (response: Response, description: RegExp) => {
    const body = await response.json();
    expect([response.status, body]).toEqual([
      429,
      { code: 'RATE_LIMITED', description: expect.stringMatching(description) },
    ]);
    expect(Number(response.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  };

  describe('anonymous uploads', () => {
    it('are limited in bytes per client address, refused from the declared size before the body is read', async () => {
      const formId = await newUploadForm();
      const client = newClient();
      expect((await upload(formId, client, 200 * kib)).status).toBe(201);
      // 200 KiB more would pass the address's 300: answered with the body held back.
      const held = rawRequest(base(), {
        method: 'POST',
        path: `/forms/${formId}/files/cv?filename=cv.pdf`,
        headers: { 'content-type': 'application/octet-stream', 'x-forwarded-for': client },
        declaredLength: 200 * kib,
      });
      const answer = await held.answer;
      held.close();
      expect(answer?.status).toBe(429);
      expect(answer?.body).toEqual({
        code: 'RATE_LIMITED',
        description: expect.stringMatching(/bytes uploaded from this address/),
      });
      // The refusal cost nothing: what still fits is taken.
      expect((await upload(formId, client, 90 * kib)).status).toBe(201);
      await expectRefused(await upload(formId, client, 20 * kib), /bytes uploaded from this address/);
      // Another address still uploads to the same form.
      expect((await upload(formId, newClient(), 10 * kib)).status).toBe(201);
    });

    it('are limited in files per client address', async () => {
      const formId = await newUploadForm();
      const client = newClient();
      for (let file = 1; file <= 5; file++) expect((await upload(formId, client, 10)).status).toBe(201);
      await expectRefused(await upload(formId, client, 10), /files uploaded from this address/);
    });

    it('are limited in bytes per form, whatever the addresses; other forms still take theirs', async () => {
      const busy = await newUploadForm();
      expect((await upload(busy, newClient(), 250 * kib)).status).toBe(201);
      expect((await upload(busy, newClient(), 250 * kib)).status).toBe(201);
      const client = newClient();
      await expectRefused(await upload(busy, client, 10), /bytes uploaded to this form/);
      expect((await upload(await newUploadForm(), client, 10)).status).toBe(201);
    });

    it('without a declared size are refused 411 before the body is read, holding nothing', async () => {
      const formId = await newUploadForm();
      const client = newClient();
      // A chunked body: no Content-Length to reserve before reading it.
      const path = `/forms/${formId}/files/cv?filename=cv.pdf`;
      const chunked = await sendReadingEarlyAnswer(base(), {
        method: 'POST',
        path,
        head:
          `POST ${path} HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/octet-stream\r\n` +
          `x-forwarded-for: ${client}\r\ntransfer-encoding: chunked\r\n\r\n`,
        body: `1000\r\n${'b'.repeat(4096)}\r\n`,
      });
      expect([chunked.status, chunked.body]).toEqual([
        411,
        { code: 'LENGTH_REQUIRED', description: expect.stringMatching(/Content-Length/) },
      ]);
      // The refusal took no share: the address's whole budget is left.
      expect((await upload(formId, client, 250 * kib)).status).toBe(201);
    });

    it('give their share back when nothing is stored', async () => {
      const formId = await newUploadForm();
      const client = newClient();
      // Six refusals (no such question) from an address that may upload five files.
      for (let attempt = 1; attempt <= 6; attempt++) {
        const refused = await fetchReadingEarlyAnswer(`${base()}/forms/${formId}/files/nope?filename=a.pdf`, {
          method: 'POST',
          headers: { 'content-type': 'application/octet-stream', 'x-forwarded-for': client },
          body: Buffer.alloc(100 * kib),
        });
        expect(refused.status).toBe(404);
      }
      expect((await upload(formId, client, 100 * kib)).status).toBe(201);
    });
  });

  it("counts uploads with a token against the token's account, not the address", async () => {
    const formId = await newUploadForm();
    const client = newClient();
    expect((await upload(formId, client, 250 * kib, { token: alice.token })).status).toBe(201);
    await expectRefused(
      await upload(formId, newClient(), 100 * kib, { token: alice.token }),
      /bytes uploaded with this account's tokens/,
    );
    // The same address without the token has its own budget.
    expect((await upload(formId, client, 250 * kib)).status).toBe(201);
  });

  describe('personal tokens', () => {
    const asCarol = () => basicAuthorization(carol.email, carol.password);
    const createToken = (name: string) =>
      callApi(`${base()}/tokens`, {
        method: 'POST',
        headers: asCarol(),
        body: { name, scopes: ['forms:read'] },
      });

    it('are at most PERSONAL_TOKENS_PER_ACCOUNT live ones an account, parallel creations included', async () => {
      const live = (await callApi(`${base()}/tokens`, { headers: asCarol() })).body.items.length as number;
      expect(live).toBeLessThan(4);
      const created = await Promise.all(
        Array.from({ length: 6 }, (_, index) => createToken(`script ${index}`)),
      );
      const statuses = created.map((answer) => answer.status).sort();
      expect(statuses).toEqual([...Array<number>(4 - live).fill(201), ...Array<number>(2 + live).fill(409)]);
      expect(created.find((answer) => answer.status === 409)?.body).toEqual({
        code: 'CONFLICT',
        description: expect.stringMatching(/holds 4 live personal tokens/),
        details: [
          {
            code: 'TOO_MANY_TOKENS',
            description: 'at most 4 live tokens an account',
            field: '',
            in: 'body',
          },
        ],
      });
      // A revoked token makes room for one more.
      const revoked = created.find((answer) => answer.status === 201)!.body.id as string;
      expect(
        (await callApi(`${base()}/tokens/${revoked}`, { method: 'DELETE', headers: asCarol() })).status,
      ).toBe(204);
      expect((await createToken('after a revoke')).status).toBe(201);
      expect((await createToken('one too many')).status).toBe(409);
    });
  });

  describe('OAuth applications', () => {
    const asCarol = () => basicAuthorization(carol.email, carol.password);
    const register = (name: string) =>
      callApi(`${base()}/oauth/applications`, {
        method: 'POST',
        headers: asCarol(),
        body: { name, redirect_uris: ['https://app.example.com/callback'] },
      });

    it('are at most OAUTH_APPLICATIONS_PER_ACCOUNT an account, parallel registrations included', async () => {
      const held = (await callApi(`${base()}/oauth/applications`, { headers: asCarol() })).body.items
        .length as number;
      expect(held).toBeLessThan(3);
      const made = await Promise.all(Array.from({ length: 5 }, (_, index) => register(`app ${index}`)));
      const statuses = made.map((answer) => answer.status).sort();
      expect(statuses).toEqual([...Array<number>(3 - held).fill(201), ...Array<number>(2 + held).fill(409)]);
      expect(made.find((answer) => answer.status === 409)?.body).toMatchObject({
        code: 'CONFLICT',
        details: [{ code: 'TOO_MANY_APPLICATIONS', description: 'at most 3 applications an account' }],
      });
      // Deleting one makes room for one more.
      const deleted = made.find((answer) => answer.status === 201)!.body.client_id as string;
      const gone = await callApi(`${base()}/oauth/applications/${deleted}`, {
        method: 'DELETE',
        headers: asCarol(),
      });
      expect(gone.status).toBe(204);
      expect((await register('after a delete')).status).toBe(201);
      expect((await register('one too many')).status).toBe(409);
    });
  });
});
