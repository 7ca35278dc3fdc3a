// The size of everything a caller may send, in one place. Every string and
// array the API accepts is bounded so that no single request can make a
// service hold, store or relay an unbounded amount of data, and so that every
// reply between services stays below the NATS message limit (1 MB). Lengths
// count UTF-16 code units (JavaScript's `length`), as zod's `.max()` does.
// Chosen after Typeform's own limits where it publishes them; see
// docs/decisions/limits-and-abuse.md and docs/security.md.
export const inputLimits = {
  /** Ids and refs of forms, fields, choices, screens, workspaces, tokens. */
  id: 255,
  /** Names: workspaces, tokens, tags, hidden fields, variables. */
  name: 255,
  /** A form's title. */
  formTitle: 1_000,
  /** Question and screen titles, descriptions, labels, button texts. */
  text: 4_000,
  /** Any URL (webhooks, attachments, redirects, themes). */
  url: 2_048,
  /** Settings that carry snippets (analytics ids, ad pixels, tag managers). */
  snippet: 1_000,
  /** A text answer (long_text included), as Typeform's longest answer. */
  answerText: 10_000,
  /** Short answers: email, phone number, date, url, choice labels. */
  answerShort: 1_000,
  /** One query parameter value (lists of ids included). */
  queryValue: 8_192,
  /** One header value a route reads (If-Match, Cookie). */
  headerValue: 8_192,
  /** One hidden field value. */
  hiddenValue: 1_000,
  /** Questions in a form, groups' questions included. */
  fields: 250,
  /** Choices of one question. */
  choices: 250,
  /** Hidden fields of a form. */
  hidden: 50,
  /** Welcome and thank-you screens of a form (each). */
  screens: 20,
  /** Logic jumps of a form, and actions of one jump. */
  logic: 250,
  actions: 100,
  /** Variables (and nested conditions) of one condition. */
  conditionVars: 100,
  /** Answers in one submission (at most one per question). */
  answers: 250,
  /** Choices named in one `choices` answer. */
  answerChoices: 250,
  /** Operations in one JSON Patch. */
  patchOperations: 100,
  /** Ids in one request that names many (e.g. responses to delete). */
  idList: 1_000,
  /** Scopes named in one token request. */
  scopes: 50,
  /** How deep a JSON body may nest (objects and arrays). */
  jsonDepth: 32,
  /** A request body, in bytes: a whole form definition or submission fits. */
  bodyBytes: 512 * 1024,
  /**
   * The largest reply a service sends over NATS, in bytes: below the
   * server's 1 MB max_payload with room for the envelope and headers.
   */
  replyBytes: 900 * 1024,
  /**
   * A stored form definition or response, in bytes of JSON: what the service
   * keeps may be larger than what was sent (ids, labels of picked choices), so
   * it is measured once built. Two of them (a submission event carries the
   * response and the form's questions) fit in one NATS message.
   */
  storedBytes: 384 * 1024,
  /** A listing page is cut at this many bytes of items (a page always holds one). */
  pageBytes: 768 * 1024,
  /** Details listed in one error body (the rest is summarised). */
  errorDetails: 50,
} as const;

// The size of a value once serialised as JSON, in bytes (UTF-8).
export function jsonBytes(value: unknown): number {
  return Buffer.byteLength(JSON.stringify(value) ?? '');
}
