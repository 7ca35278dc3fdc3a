import { createHash, randomBytes } from 'node:crypto';

// What a browser and an OAuth client do, with plain fetch: open the
// authorization page, fill in its form, follow nothing (tests read Location),
// and talk to the token endpoint.

export interface AuthorizePage {
  status: number;
  headers: Headers;
  html: string;
  /** `name=value` of the cookie the page set, to send back with the form. */
  cookie?: string;
  /** The form's hidden fields, as the page carries them. */
  fields: Record<string, string>;
  url: string;
}

export async function openAuthorizePage(url: string): Promise<AuthorizePage> {
  const response = await fetch(url, { redirect: 'manual' });
  const html = await response.text();
  const setCookie = response.headers.get('set-cookie');
  const fields: Record<string, string> = {};
  for (const [, name, value] of html.matchAll(/<input type="hidden" name="([^"]*)" value="([^"]*)">/g)) {
    fields[unescapeHtml(name)] = unescapeHtml(value);
  }
  return {
    status: response.status,
    headers: response.headers,
    html,
    cookie: setCookie?.split(';')[0],
    fields,
    url,
  };
}

export interface FormAnswer {
  status: number;
  headers: Headers;
  /** The Location header, parsed, when the answer is a redirect. */
  location?: URL;
  html: string;
}

// Submits the page's form as the person would: credentials and a decision.
export async function submitConsent(
  page: AuthorizePage,
  input: { email?: string; password?: string; decision: 'allow' | 'deny'; cookie?: string | null },
): Promise<FormAnswer> {
  const body = new URLSearchParams({ ...page.fields, decision: input.decision });
  if (input.email !== undefined) body.set('email', input.email);
  if (input.password !== undefined) body.set('password', input.password);
  const cookie = input.cookie === undefined ? page.cookie : input.cookie;
  const response = await fetch(new URL('authorize', page.url), {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...(cookie ? { cookie } : {}) },
    body,
  });
  const location = response.headers.get('location');
  return {
    status: response.status,
    headers: response.headers,
    location: location ? new URL(location) : undefined,
    html: await response.text(),
  };
}

// A POST with a form-encoded body, as OAuth clients call the token endpoint.
export async function postForm(
  url: string,
  params: Record<string, string | undefined>,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Headers; body: any; text: string }> {
  const body = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) if (value !== undefined) body.set(name, value);
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body,
  });
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  return { status: response.status, headers: response.headers, body: parsed, text };
}

export function basicAuthorization(user: string, password: string): Record<string, string> {
  return { authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}` };
}

export function pkcePair(): { verifier: string; challenge: string } {
  const verifier = randomBytes(48).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

function unescapeHtml(value: string): string {
  return value.replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code)));
}
