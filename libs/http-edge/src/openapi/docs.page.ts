import { createHash } from 'node:crypto';

// GET /docs: the OpenAPI document as a page to read, rendered in the browser
// from /openapi.json by a small script of our own. Nothing is fetched from
// elsewhere (no CDN): the Content-Security-Policy allows only this page's own
// script and style, by hash, and requests to this origin.

const style = `
body { font: 15px/1.5 system-ui, sans-serif; margin: 0 auto; max-width: 62rem; padding: 1rem 2rem 4rem; color: #1d2330; }
h1 { margin-bottom: 0; } h2 { margin-top: 2.5rem; border-bottom: 1px solid #d8dce4; }
code, pre { font: 13px/1.45 ui-monospace, monospace; }
pre { background: #f5f6f8; padding: .6rem .8rem; overflow-x: auto; border-radius: 4px; }
details { border: 1px solid #d8dce4; border-radius: 4px; margin: .4rem 0; }
summary { cursor: pointer; padding: .4rem .6rem; }
details > div { padding: 0 .8rem .6rem; }
.method { display: inline-block; min-width: 4.2rem; font-weight: 600; text-transform: uppercase; }
.get { color: #1769aa; } .post { color: #1b7f3b; } .put, .patch { color: #9a5b00; } .delete { color: #b3261e; }
.scope { float: right; font-size: 12px; background: #eef1f6; border-radius: 3px; padding: 0 .4rem; }
table { border-collapse: collapse; width: 100%; } td, th { text-align: left; padding: .2rem .5rem; border-bottom: 1px solid #eceef2; vertical-align: top; }
.muted { color: #5b6475; }
`;

const script = `
const el = (tag, attrs = {}, ...children) => {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  for (const child of children) node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  return node;
};
const refName = (ref) => ref.replace('#/components/schemas/', '');
// A schema as JSON, its references made links to the schema section.
const schemaBlock = (schema) => {
  const pre = el('pre');
  const text = JSON.stringify(schema, null, 2);
  let last = 0;
  for (const match of text.matchAll(/"#\\/components\\/schemas\\/([^"]+)"/g)) {
    pre.append(text.slice(last, match.index));
    pre.append(el('a', { href: '#schema-' + match[1] }, match[0]));
    last = match.index + match[0].length;
  }
  pre.append(text.slice(last));
  return pre;
};
const resolve = (doc, object) => object && object.$ref ? resolve(doc, object.$ref.split('/').slice(1).reduce((node, key) => node[key], doc)) : object;
const typeOf = (schema = {}) => schema.$ref ? refName(schema.$ref) : [schema.type ?? (schema.enum ? 'enum' : 'any'), schema.enum ? '(' + schema.enum.join(' | ') + ')' : '', schema.default !== undefined ? '= ' + JSON.stringify(schema.default) : ''].filter(Boolean).join(' ');
function operationView(doc, path, method, op) {
  const scopes = (op.security ?? []).flatMap((requirement) => Object.values(requirement).flat());
  const body = el('div');
  if (op.description) body.append(el('p', {}, op.description));
  body.append(el('p', { class: 'muted' }, scopes.length ? 'Scope: ' + scopes.join(', ') : (op.security ?? []).length ? 'Authenticated.' : 'No authentication.'));
  const parameters = (op.parameters ?? []).map((parameter) => resolve(doc, parameter));
  if (parameters.length) {
    const table = el('table', {}, el('tr', {}, el('th', {}, 'Parameter'), el('th', {}, 'In'), el('th', {}, 'Type'), el('th', {}, 'Description')));
    for (const parameter of parameters) table.append(el('tr', {}, el('td', {}, el('code', {}, parameter.name + (parameter.required ? ' *' : ''))), el('td', {}, parameter.in), el('td', {}, typeOf(parameter.schema)), el('td', {}, parameter.description ?? '')));
    body.append(el('h4', {}, 'Parameters'), table);
  }
  if (op.requestBody) {
    body.append(el('h4', {}, 'Request body'));
    for (const [type, media] of Object.entries(op.requestBody.content)) body.append(el('p', {}, el('code', {}, type)), schemaBlock(media.schema ?? {}));
  }
  body.append(el('h4', {}, 'Responses'));
  for (const [status, response] of Object.entries(op.responses ?? {})) {
    body.append(el('p', {}, el('strong', {}, status + ' '), response.description ?? '', ' ', el('span', { class: 'muted' }, 'Headers: ' + Object.keys(response.headers ?? {}).join(', '))));
    for (const [type, media] of Object.entries(response.content ?? {})) if (media.schema) body.append(el('p', {}, el('code', {}, type)), schemaBlock(media.schema));
  }
  return el('details', { id: op.operationId ?? '' }, el('summary', {}, el('span', { class: 'method ' + method }, method), ' ', el('code', {}, path), ' — ', op.summary ?? '', ...(scopes.length ? [el('span', { class: 'scope' }, scopes.join(', '))] : [])), body);
}
async function render() {
  const root = document.getElementById('root');
  try {
    const doc = await (await fetch('openapi.json')).json();
    document.title = doc.info.title + ' ' + doc.info.version;
    root.append(el('h1', {}, doc.info.title), el('p', { class: 'muted' }, 'Version ' + doc.info.version + ' · OpenAPI ' + doc.openapi + ' · ', el('a', { href: 'openapi.json' }, 'openapi.json')), el('p', {}, doc.info.description ?? ''));
    const servers = el('ul');
    for (const server of doc.servers ?? []) servers.append(el('li', {}, el('code', {}, server.url), ' ', server.description ?? ''));
    root.append(el('h2', {}, 'Base addresses'), servers);
    const byTag = new Map();
    for (const [path, operations] of Object.entries(doc.paths)) for (const [method, op] of Object.entries(operations)) {
      const tag = (op.tags ?? ['other'])[0];
      if (!byTag.has(tag)) byTag.set(tag, []);
      byTag.get(tag).push(operationView(doc, path, method, op));
    }
    for (const [tag, views] of byTag) root.append(el('h2', {}, tag), ...views);
    root.append(el('h2', {}, 'Schemas'));
    for (const [name, schema] of Object.entries(doc.components?.schemas ?? {})) root.append(el('h3', { id: 'schema-' + name }, name), schemaBlock(schema));
  } catch (error) {
    root.append(el('p', {}, 'The API document could not be loaded: ' + error));
  }
}
render();
`;

const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

export const docsPageHtml = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Formline API</title>
<style>${style}</style>
</head>
<body>
<main id="root"></main>
<script>${script}</script>
</body>
</html>
`;

export const docsPageContentSecurityPolicy = [
  "default-src 'none'",
  `script-src ${sha256(script)}`,
  `style-src ${sha256(style)}`,
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');
