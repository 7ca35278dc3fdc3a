import { createHash } from 'node:crypto';

// GET /: what someone who opens a base address sees. A browser gets a short
// page, an API client (anything that does not ask for HTML) the same as JSON:
// what this is, which region answers, where the API is described, where the
// owner's console is, how a form's page is reached, and a form to try when one is configured
// (DEMO_FORM_ID; `npm start` names its demo form). Served by the edge itself,
// public, without asking any service.

export interface HomeSettings {
  region: string;
  /** A form to try, linked as its respondent page; empty: none. */
  demoFormId: string;
}

export interface HomeDocument {
  name: 'Formline';
  description: string;
  region: string;
  documentation: string;
  openapi: string;
  console: string;
  respondent_page: string;
  demo_form: string | null;
}

export function homeDocument(settings: HomeSettings): HomeDocument {
  return {
    name: 'Formline',
    description: `Forms, responses and webhooks, Typeform-style. This base address is region ${settings.region}.`,
    region: settings.region,
    documentation: '/docs',
    openapi: '/openapi.json',
    console: '/console',
    respondent_page: '/to/{form_id}',
    demo_form: settings.demoFormId ? `/to/${encodeURIComponent(settings.demoFormId)}` : null,
  };
}

const style = `
body { font: 16px/1.5 system-ui, sans-serif; margin: 0 auto; max-width: 40rem; padding: 2rem; color: #1d2330; }
code { font: 14px ui-monospace, monospace; background: #f5f6f8; padding: 0 .25rem; border-radius: 3px; }
`;

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);

export function homePageHtml(settings: HomeSettings): string {
  const home = homeDocument(settings);
  const demo = home.demo_form
    ? `<li>Try a form: <a href="${escapeHtml(home.demo_form)}">${escapeHtml(home.demo_form)}</a></li>`
    : '';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Formline</title>
<style>${style}</style>
</head>
<body>
<h1>Formline</h1>
<p>${escapeHtml(home.description)}</p>
<ul>
<li>The API, to read: <a href="${home.documentation}">${home.documentation}</a></li>
<li>The API, as OpenAPI 3.1: <a href="${home.openapi}">${home.openapi}</a></li>
<li>The owner's console, to sign in: <a href="${home.console}">${home.console}</a></li>
<li>A form's page for respondents: <code>${home.respondent_page}</code></li>
${demo}
</ul>
</body>
</html>
`;
}

const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

export const homePageContentSecurityPolicy = [
  "default-src 'none'",
  `style-src ${sha256(style)}`,
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

// A browser asks for text/html first; curl and the SDKs do not ask for it.
export function prefersHtml(accept: string | undefined): boolean {
  return typeof accept === 'string' && accept.toLowerCase().includes('text/html');
}
