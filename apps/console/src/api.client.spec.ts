import { ApiClient, ApiError, errorInWords } from './api.client';

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

describe("the console's API client", () => {
  it('sends the token and the query, drops empty values, and gives back the body', async () => {
    const sent: Array<{ input: string; init: RequestInit }> = [];
    const api = new ApiClient(
      (input, init) => {
        sent.push({ input, init });
        return Promise.resolve(json(200, { items: [] }));
      },
      () => 'tfo_token',
    );
    expect(await api.get('/forms', { search: 'a b&c', workspace_id: undefined, page: 2, empty: '' })).toEqual(
      {
        items: [],
      },
    );
    expect(sent[0].input).toBe('/forms?search=a+b%26c&page=2');
    expect(sent[0].init.headers).toMatchObject({ authorization: 'Bearer tfo_token' });
    expect(sent[0].init.credentials).toBe('omit');
  });

  it('sends no authorization without a token, and form-encodes OAuth posts', async () => {
    const sent: RequestInit[] = [];
    const api = new ApiClient(
      (_input, init) => {
        sent.push(init);
        return Promise.resolve(json(200, {}));
      },
      () => undefined,
    );
    await api.get('/me');
    await api.postForm('/oauth/revoke', { token: 't', client_id: 'formline-console' });
    expect(sent[0].headers).not.toHaveProperty('authorization');
    expect(sent[1]).toMatchObject({ method: 'POST', body: 'token=t&client_id=formline-console' });
  });

  it('sends changes as JSON with the token, and takes an answer without a body (204)', async () => {
    const sent: Array<{ input: string; init: RequestInit }> = [];
    const api = new ApiClient(
      (input, init) => {
        sent.push({ input, init });
        return Promise.resolve(
          init.method === 'DELETE' ? new Response(null, { status: 204 }) : json(200, { tag: 'hook' }),
        );
      },
      () => 'tfo_token',
    );
    expect(await api.change('PUT', '/forms/f/webhooks/hook', { enabled: true })).toEqual({ tag: 'hook' });
    expect(await api.change('DELETE', '/forms/f/webhooks/hook')).toBeUndefined();
    expect(sent[0].init).toMatchObject({
      method: 'PUT',
      body: '{"enabled":true}',
      headers: { 'content-type': 'application/json', authorization: 'Bearer tfo_token' },
    });
    expect(sent[1].init.body).toBeUndefined();
    expect(sent[1].init.headers).not.toHaveProperty('content-type');
  });

  it("downloads a file with the token, named as the answer says, and says a refusal in the API's words", async () => {
    const sent: Array<{ input: string; init: RequestInit }> = [];
    const answers = [
      new Response('token,name\r\n', {
        status: 200,
        headers: { 'content-disposition': 'attachment; filename="f1-responses.csv"' },
      }),
      new Response('bytes', {
        status: 200,
        headers: { 'content-disposition': 'attachment; filename="../x"' },
      }),
      json(404, { code: 'FORM_NOT_FOUND', description: 'No such form.' }),
    ];
    const api = new ApiClient(
      (input, init) => {
        sent.push({ input, init });
        return Promise.resolve(answers.shift()!);
      },
      () => 'tfo_token',
    );
    const csv = await api.download(
      '/forms/f1/responses/export',
      { format: 'csv', query: '' },
      'fallback.csv',
    );
    expect(csv.fileName).toBe('f1-responses.csv');
    expect(await csv.blob.text()).toBe('token,name\r\n');
    expect(sent[0].input).toBe('/forms/f1/responses/export?format=csv');
    expect(sent[0].init.headers).toMatchObject({ authorization: 'Bearer tfo_token' });
    // A name with a path in it is not taken.
    expect((await api.download('/file', {}, 'cv.pdf')).fileName).toBe('cv.pdf');
    const refused = await api
      .download('/forms/gone/responses/export', {}, 'x')
      .catch((caught: unknown) => caught);
    expect(errorInWords(refused)).toBe('No such form. (FORM_NOT_FOUND)');
  });

  it('turns an error body into words, with its code and the inputs that were wrong', async () => {
    const api = new ApiClient(
      () =>
        Promise.resolve(
          json(400, {
            code: 'VALIDATION_ERROR',
            description: 'The request is not valid.',
            details: [
              { code: 'TOO_BIG', description: 'at most 200', field: 'page_size', in: 'query' },
              { nonsense: true },
            ],
          }),
        ),
      () => 't',
    );
    const error = await api.get('/forms').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect(errorInWords(error)).toBe('The request is not valid. (VALIDATION_ERROR)');
    expect((error as ApiError).details).toEqual(['page_size: at most 200']);
  });

  it('knows which answers end the sign-in', async () => {
    const answer = (code: string) =>
      new ApiClient(
        () => Promise.resolve(json(401, { code, description: 'No.' })),
        () => 't',
      )
        .get<never>('/me')
        .catch((caught: unknown) => caught as ApiError);
    expect((await answer('TOKEN_REVOKED')).endsSignIn).toBe(true);
    expect((await answer('INVALID_TOKEN')).endsSignIn).toBe(true);
    expect((await answer('FORBIDDEN')).endsSignIn).toBe(false);
  });

  it('says what happened when the answer is no JSON, or the server cannot be reached', async () => {
    const html = new ApiClient(
      () => Promise.resolve(new Response('<h1>Bad gateway</h1>', { status: 502 })),
      () => 't',
    );
    expect(errorInWords(await html.get('/forms').catch((caught: unknown) => caught))).toBe(
      'The server answered 502 without saying why. Try again in a moment. (HTTP_502)',
    );
    const away = new ApiClient(
      () => Promise.reject(new TypeError('fetch failed')),
      () => 't',
    );
    expect(errorInWords(await away.get('/forms').catch((caught: unknown) => caught))).toBe(
      'The server could not be reached. Check the connection, then try again.',
    );
  });

  it('bounds what the server says', async () => {
    const api = new ApiClient(
      () => Promise.resolve(json(500, { code: 'INTERNAL', description: 'x'.repeat(5000) })),
      () => 't',
    );
    const error = (await api.get('/forms').catch((caught: unknown) => caught)) as ApiError;
    expect(error.description.length).toBeLessThanOrEqual(501);
  });

  it('reads a version (ETag) and writes only over it (If-Match), and keeps each refused field whole', async () => {
    const sent: Array<{ input: string; init: RequestInit }> = [];
    const answers = [
      new Response('{"id":"f"}', { status: 200, headers: { etag: '"3"' } }),
      new Response('{"id":"f"}', { status: 200, headers: { etag: '"4"' } }),
      json(400, {
        code: 'VALIDATION_ERROR',
        description: 'Invalid form.',
        details: [
          { field: 'fields[0].title', description: 'title is required' },
          { description: 'no field' },
        ],
      }),
    ];
    const api = new ApiClient(
      (input, init) => {
        sent.push({ input, init });
        return Promise.resolve(answers.shift()!);
      },
      () => 'tfo_token',
    );
    expect(await api.getVersioned('/forms/f')).toEqual({ body: { id: 'f' }, etag: '"3"' });
    expect(await api.putVersioned('/forms/f', { title: 'T' }, '"3"')).toEqual({
      body: { id: 'f' },
      etag: '"4"',
    });
    expect(sent[1].init).toMatchObject({
      method: 'PUT',
      body: '{"title":"T"}',
      headers: { 'if-match': '"3"', 'content-type': 'application/json', authorization: 'Bearer tfo_token' },
    });
    const refused = await api.putVersioned('/forms/f', {}, '"4"').catch((error: unknown) => error);
    expect(refused).toMatchObject({
      status: 400,
      details: ['fields[0].title: title is required', 'no field'],
      fieldProblems: [{ field: 'fields[0].title', description: 'title is required' }],
    });
  });
});
