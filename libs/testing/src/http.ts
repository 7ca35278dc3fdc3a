export interface ApiResponse {
  status: number;
  headers: Headers;
  text: string;
  /** Parsed JSON body (undefined when the body is not JSON); tests assert on its shape. */
  body: any;
}

// One HTTP call to a gateway, as an integrator's client would make it.
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
  const response = await fetch(url, {
    method: options.method ?? 'GET',
    headers,
    body: options.rawBody ?? (options.body === undefined ? undefined : JSON.stringify(options.body)),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, text, body: parseJson(text) };
}

function parseJson(text: string): unknown {
  try {
    return text ? JSON.parse(text) : undefined;
  } catch {
    return undefined;
  }
}
