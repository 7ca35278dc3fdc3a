import { type ConsoleTexts, englishTexts, type TextKey, type TextParams } from './console.texts';

// The console's only way to the server: the public API on its own origin
// (the page's policy allows no other), with the signed-in token. Every answer
// that is not a success becomes an ApiError in words a person can act on,
// from the API's error body `{code, description, details}`.
/** One part of a request the API refused: its path (`fields[2].title`) and why. */
export interface FieldProblem {
  field: string;
  description: string;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly description: string,
    readonly details: string[] = [],
    /** The details that name a field, each whole, for a screen to show where it is. */
    readonly fieldProblems: FieldProblem[] = [],
    /** A failure the console words itself (no description from the server): said in its language. */
    readonly words?: { key: TextKey; params?: TextParams },
  ) {
    super(description);
  }

  /** A failure in the console's own words: English as its description, any language when said. */
  static inWords(status: number, code: string, key: TextKey, params?: TextParams): ApiError {
    return new ApiError(status, code, englishTexts.t(key, params), [], [], { key, params });
  }

  /** The token is no good any more (revoked, expired, unknown): sign in again. */
  get endsSignIn(): boolean {
    return ['AUTHENTICATION_FAILED', 'INVALID_TOKEN', 'TOKEN_REVOKED', 'TOKEN_EXPIRED'].includes(this.code);
  }
}

/** An answer and its version, as the ETag header gave it. */
export interface Versioned<T> {
  body: T;
  etag?: string;
}

export type Query = Record<string, string | number | undefined>;
type Send = (input: string, init: RequestInit) => Promise<Response>;

// Texts from the server are shown as text nodes, never as markup, and bounded.
const bounded = (text: string, length = 500) => (text.length > length ? `${text.slice(0, length)}…` : text);

export class ApiClient {
  constructor(
    private readonly send: Send,
    private readonly token: () => string | undefined,
  ) {}

  async get<T>(path: string, query: Query = {}, signal?: AbortSignal): Promise<T> {
    const token = this.token();
    return this.call<T>(addressOf(path, query), {
      headers: { accept: 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      signal,
    });
  }

  /**
   * A file the API serves only with the token (an export, a respondent's
   * upload), so a plain link cannot fetch it: its bytes, and the name the
   * answer's Content-Disposition gives it (or `fallbackName`).
   */
  async download(
    path: string,
    query: Query,
    fallbackName: string,
  ): Promise<{ blob: Blob; fileName: string }> {
    const token = this.token();
    const response = await this.reach(addressOf(path, query), {
      headers: { accept: '*/*', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    });
    if (!response.ok) throw errorFrom(response.status, await response.json().catch(() => undefined));
    const fileName = attachmentName(response.headers.get('content-disposition')) ?? fallbackName;
    return { blob: await response.blob(), fileName };
  }

  /**
   * A streamed answer the API serves only with the token (an export, a files
   * archive), opened but not read: its body is read chunk by chunk as it
   * arrives, so nothing holds it whole. `signal` cancels the request and the
   * reading alike.
   */
  async stream(
    path: string,
    query: Query,
    fallbackName: string,
    signal?: AbortSignal,
  ): Promise<{ body: ReadableStream<Uint8Array>; fileName: string }> {
    const token = this.token();
    const response = await this.reach(addressOf(path, query), {
      headers: { accept: '*/*', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      signal,
    });
    if (!response.ok) throw errorFrom(response.status, await response.json().catch(() => undefined));
    if (!response.body) throw ApiError.inWords(response.status, 'EMPTY', 'error.empty');
    const fileName = attachmentName(response.headers.get('content-disposition')) ?? fallbackName;
    return { body: response.body, fileName };
  }

  /** A change (PUT, POST, DELETE) with a JSON body, or none; a 204 gives back undefined. */
  async change<T>(method: 'PUT' | 'POST' | 'DELETE', path: string, body?: unknown): Promise<T> {
    const token = this.token();
    return this.call<T>(path, {
      method,
      headers: {
        accept: 'application/json',
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  }

  /**
   * A resource with its version (the answer's ETag), for a later write that
   * must not overwrite a newer one.
   */
  async getVersioned<T>(path: string, signal?: AbortSignal): Promise<Versioned<T>> {
    const token = this.token();
    return this.callVersioned<T>(path, {
      headers: { accept: 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      signal,
    });
  }

  /** A PUT that writes only over the version read (`If-Match`); the API answers 412 otherwise. */
  async putVersioned<T>(path: string, body: unknown, etag: string): Promise<Versioned<T>> {
    const token = this.token();
    return this.callVersioned<T>(path, {
      method: 'PUT',
      headers: {
        accept: 'application/json',
        'content-type': 'application/json',
        'if-match': etag,
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      body: JSON.stringify(body),
    });
  }

  /** A form-encoded POST, as the OAuth token and revocation endpoints take it. */
  async postForm<T>(path: string, params: Record<string, string>): Promise<T> {
    return this.call<T>(path, {
      method: 'POST',
      headers: { accept: 'application/json', 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(params).toString(),
    });
  }

  private async reach(address: string, init: RequestInit): Promise<Response> {
    try {
      return await this.send(address, { ...init, credentials: 'omit', cache: 'no-store' });
    } catch (error) {
      if (error instanceof DOMException && error.name === 'AbortError') throw error;
      throw new ApiError(0, 'NETWORK', englishTexts.t('error.network'));
    }
  }

  private async callVersioned<T>(address: string, init: RequestInit): Promise<Versioned<T>> {
    const response = await this.reach(address, init);
    const body: unknown = await response.json().catch(() => undefined);
    if (!response.ok) throw errorFrom(response.status, body);
    return { body: body as T, etag: response.headers.get('etag') ?? undefined };
  }

  private async call<T>(address: string, init: RequestInit): Promise<T> {
    const response = await this.reach(address, init);
    const body: unknown = await response.json().catch(() => undefined);
    if (response.ok) return body as T;
    throw errorFrom(response.status, body);
  }
}

function addressOf(path: string, query: Query): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value !== undefined && value !== '') search.set(name, String(value));
  }
  return search.size > 0 ? `${path}?${search.toString()}` : path;
}

// The file name of `attachment; filename="…"`, only a plain one (no path, no quotes).
function attachmentName(disposition: string | null): string | undefined {
  const name = /filename="([^"/\\]{1,200})"/.exec(disposition ?? '')?.[1];
  return name && name.trim() !== '' ? name : undefined;
}

// A form refused whole may have many faults; a screen shows this many at most.
const maxFieldProblems = 50;

function errorFrom(status: number, body: unknown): ApiError {
  const fields = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
  const code = typeof fields.code === 'string' ? bounded(fields.code, 64) : `HTTP_${status}`;
  const explained = typeof fields.description === 'string' && fields.description.trim() !== '';
  const unexplained = { key: 'error.unexplained', params: { status: String(status) } } as const;
  const description = explained
    ? bounded(fields.description as string)
    : englishTexts.t(unexplained.key, unexplained.params);
  const details = Array.isArray(fields.details)
    ? fields.details
        .slice(0, 5)
        .map((detail: unknown) => {
          const { field, description: what } = (detail ?? {}) as Record<string, unknown>;
          if (typeof what !== 'string') return undefined;
          return typeof field === 'string' && field
            ? `${bounded(field, 100)}: ${bounded(what)}`
            : bounded(what);
        })
        .filter((line): line is string => line !== undefined)
    : [];
  const fieldProblems = Array.isArray(fields.details)
    ? fields.details.slice(0, maxFieldProblems).flatMap((detail: unknown) => {
        const { field, description: what } = (detail ?? {}) as Record<string, unknown>;
        return typeof field === 'string' && field && typeof what === 'string'
          ? [{ field: bounded(field, 200), description: bounded(what) }]
          : [];
      })
    : [];
  return new ApiError(status, code, description, details, fieldProblems, explained ? undefined : unexplained);
}

/** What to tell the person about a failure, in one sentence (the details apart). */
// The API's description stays in the API's words; what the console says
// itself (a server out of reach, its wrappers) is in the console's language.
export function errorInWords(error: unknown, texts: ConsoleTexts = englishTexts): string {
  if (error instanceof ApiError) {
    const description = error.words ? texts.t(error.words.key, error.words.params) : error.description;
    if (error.code === 'NETWORK') return description;
    if (error.code === 'RATE_LIMITED') return texts.t('error.rateLimited', { description });
    return texts.t('error.withCode', { description, code: error.code });
  }
  return texts.t('error.console');
}
