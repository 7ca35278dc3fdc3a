import { boundedText } from '@formline/input';
import { z } from 'zod';

// The origins allowed to embed a form's respondent page in a frame
// (`settings.embed_origins`), sent as the page's CSP frame-ancestors beside
// 'self'. They go into a response header, so each must be exactly an origin
// as a browser writes it: `https://` (or `http://`) and a host name or IPv4
// address, lower case, an optional port other than the scheme's default, no
// path, no trailing slash, no credentials, no wildcard (one per site that
// embeds the form); at most embedOriginLimits.count of them.
export const embedOriginLimits = { count: 20, length: 300 } as const;

// Letters, digits and hyphens in dot-separated labels: linear to check.
const hostName = /^[a-z0-9](?:[a-z0-9-]{0,62})(?:\.[a-z0-9](?:[a-z0-9-]{0,62}))*$/;

// Why `value` is not an origin the page may be framed by, or undefined if it is.
export function embedOriginProblem(value: string): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'must be an origin such as https://www.example.com';
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'must start with https:// or http://';
  if (url.origin !== value)
    return `must be the origin alone, as a browser writes it (${url.origin.slice(0, 100)}): no path, trailing slash, default port or upper case`;
  if (!hostName.test(url.hostname))
    return 'must name its host by a DNS name or an IPv4 address, without wildcards';
  return undefined;
}

export const embedOriginsSchema = z
  .array(
    boundedText(embedOriginLimits.length).check((ctx) => {
      // Too long is said once, by the bound, and never parsed.
      if (ctx.value.length > embedOriginLimits.length) return;
      const problem = embedOriginProblem(ctx.value);
      if (problem) ctx.issues.push({ code: 'custom', message: problem, input: ctx.value });
    }),
  )
  .max(embedOriginLimits.count);
