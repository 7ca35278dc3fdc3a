import { OpenApiConformance } from './openapi-conformance';
import { fetchReadingEarlyAnswer } from './raw-http';

export interface ApiResponse {
  status: number;
  headers: Headers;
  text: string;
  /** Parsed JSON body (undefined when the body is not JSON); tests assert on its shape. */
  body: any;
}

// One HTTP call to a gateway, as an integrator's client would make it. Every
// answer is also held to the gateway's own OpenAPI document (GET /openapi.json):
// an answer the document does not promise fails the test that got it, so the
// whole end-to-end suite checks the document against real traffic.
export async function callApi(
  url: string,
  options: {
    token?: string;
    method?: string;
    headers?: Record<string, string>;
    body?: unknown;
    rawBody?: string;
  } = {},
): Promise<ApiResponse> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.authorization = `bearer ${options.token}`;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const method = options.method ?? 'GET';
  // A large body may be refused before it is read: its early answer is kept.
  const response = await fetchReadingEarlyAnswer(url, {
    method,
    headers,
    body: options.rawBody ?? (options.body === undefined ? undefined : JSON.stringify(options.body)),
  });
  const text = await response.text();
  const conformance = await conformanceOf(new URL(url).origin);
  const problems = conformance.problems({
    method,
    url,
    status: response.status,
    headers: response.headers,
    text,
  });
  if (problems.length > 0) {
    throw new Error(
      `The answer does not match the API document:\n  ${problems.join('\n  ')}\n${text.slice(0, 2000)}`,
    );
  }
  return { status: response.status, headers: response.headers, text, body: parseJson(text) };
}

const documents = new Map<string, Promise<OpenApiConformance>>();

// The document of the gateway at `origin`, fetched once per test file.
function conformanceOf(origin: string): Promise<OpenApiConformance> {
  let conformance = documents.get(origin);
  if (!conformance) {
    conformance = fetch(`${origin}/openapi.json`).then(async (response) => {
      if (response.status !== 200) throw new Error(`${origin}/openapi.json answered ${response.status}`);
      return new OpenApiConformance((await response.json()) as Record<string, unknown>);
    });
    // A failed fetch is retried by the next call rather than remembered.
    conformance.catch(() => documents.delete(origin));
    documents.set(origin, conformance);
  }
  return conformance;
}

function parseJson(text: string): unknown {
  try {
    return text ? JSON.parse(text) : undefined;
  } catch {
    return undefined;
  }
}
