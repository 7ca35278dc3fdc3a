import { createHash } from 'node:crypto';
import type { ThemeResource } from '@formline/contracts';
import type { PageData, PageTexts } from '@formline/form-logic';
import { backgroundStyle, pageStyle, themeVariables } from './page-style';

// The HTML of the respondent's page. Everything that comes from the form is
// caller data: text goes through escapeHtml, the form itself travels as JSON
// in a data block (escaped so no `</script>` can end it), and the script puts
// it on the page as text nodes. The Content-Security-Policy lets the page load
// only its own script, this style and pictures (its icon too) from its own origin, and talk
// only to its own origin and the submissions address of the form's region: no
// third-party request at all.

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

// JSON for a <script type="application/json"> block: `<`, `>` and `&` as
// escapes, and the two line terminators JavaScript once refused in strings.
export function jsonForHtml(value: unknown): string {
  return JSON.stringify(value).replace(
    /[<>&\u2028\u2029]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

export interface RespondentPage {
  html: string;
  contentSecurityPolicy: string;
  indexable: boolean;
}

export interface PageHead {
  title: string;
  description?: string;
  image?: string;
  language: string;
  /** Right to left for Arabic and Hebrew; left to right when unsaid. */
  direction?: 'ltr' | 'rtl';
  indexable: boolean;
}

export function respondentPage(input: {
  head: PageHead;
  data: PageData;
  theme: ThemeResource;
  /** The theme's background picture as a path on the page's own origin, when it is one of our images. */
  backgroundImage?: string;
  scriptPath: string;
  /** The page's icon (an SVG) as a path on the page's own origin. */
  iconPath: string;
  /** Origins the form's owner lets frame the page (`settings.embed_origins`), already checked. */
  embedOrigins?: readonly string[];
}): RespondentPage {
  const { head, data, theme } = input;
  const style = `:root{${themeVariables(theme)}}${pageStyle}${backgroundStyle(theme.background, input.backgroundImage)}`;
  const meta = [
    `<meta name="robots" content="${head.indexable ? 'index, follow' : 'noindex, nofollow'}">`,
    `<meta property="og:type" content="website">`,
    `<meta property="og:title" content="${escapeHtml(head.title)}">`,
    ...(head.description
      ? [
          `<meta name="description" content="${escapeHtml(head.description)}">`,
          `<meta property="og:description" content="${escapeHtml(head.description)}">`,
        ]
      : []),
    ...(head.image
      ? [
          `<meta property="og:image" content="${escapeHtml(head.image)}">`,
          `<meta name="twitter:card" content="summary_large_image">`,
        ]
      : []),
  ];
  const html = `<!doctype html>
<html lang="${escapeHtml(head.language)}" dir="${head.direction === 'rtl' ? 'rtl' : 'ltr'}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(head.title)}</title>
<link rel="icon" href="${escapeHtml(input.iconPath)}" type="image/svg+xml">
${meta.join('\n')}
<meta name="theme-color" content="${escapeHtml(theme.colors.background)}">
<style>${style}</style>
</head>
<body>
<main id="app"><noscript><p>${escapeHtml(data.texts.needsScript)}</p></noscript></main>
<div id="live" class="sr-only" aria-live="polite"></div>
<script type="application/json" id="form-data">${jsonForHtml(data)}</script>
<script src="${escapeHtml(input.scriptPath)}" defer></script>
</body>
</html>
`;
  return {
    html,
    indexable: head.indexable,
    contentSecurityPolicy: [
      "default-src 'none'",
      "script-src 'self'",
      `style-src ${sha256(style)}`,
      `connect-src 'self' ${new URL(data.submitUrl).origin}`,
      // Pictures come from the Images API on the page's own origin, never elsewhere.
      "img-src 'self'",
      "base-uri 'none'",
      "form-action 'none'",
      // Framed by pages of the gateway's own origin and of the origins the
      // form's owner named, nothing else (docs/decisions/respondent-page.md,
      // "Framed by its own origin and the form's embed origins").
      ["frame-ancestors 'self'", ...(input.embedOrigins ?? [])].join(' '),
    ].join('; '),
  };
}

// The page for a form that does not exist or is private: the same for both,
// so the page tells no one which forms exist.
export function missingFormPage(texts: PageTexts): { html: string; contentSecurityPolicy: string } {
  const style =
    'body{font:18px/1.5 system-ui,sans-serif;margin:20vh auto;max-width:36rem;padding:0 1.25rem;color:#3D3D3D;text-align:center}';
  return {
    html: `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">
<title>Form not found</title>
<style>${style}</style>
</head>
<body><main><h1>${escapeHtml(texts.notFound)}</h1></main></body>
</html>
`,
    contentSecurityPolicy: `default-src 'none'; style-src ${sha256(style)}; base-uri 'none'; form-action 'none'; frame-ancestors 'self'`,
  };
}
