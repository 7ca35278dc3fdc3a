import { Controller, Get, Param, Res } from '@nestjs/common';
import { ApiOperation, Public } from '@formline/http-edge';
import { builtAsset, builtBrowserFiles, sendBuiltAsset } from '../browser-files/built-browser-files';

interface FileReply {
  status(code: number): FileReply;
  header(name: string, value: string): FileReply;
  send(body?: string | Buffer): void;
}

// The owner's console (apps/console): one static page and its files, on both
// base addresses, public. The page holds no data and signs in by itself,
// through the OAuth authorization code flow with PKCE as the deployment's
// public client, and then calls only the public API with its token. Its
// policy lets it load its own files and talk to its own origin, nothing else.
const pagePolicy = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self'",
  "connect-src 'self'",
  // The builder's preview frames the form's own page (/to/{id}), which
  // allows framing by this origin only; nothing from elsewhere.
  "frame-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

// A file of an older build, or none: a page that says so, and runs nothing.
const notFound = (reply: FileReply) =>
  reply
    .status(404)
    .header('content-type', 'text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    .header('x-content-type-options', 'nosniff')
    .header('content-security-policy', "default-src 'none'")
    .send(
      '<!doctype html><html lang="en"><meta charset="utf-8"><title>Not found</title><p>No such file. Reload the console.</p></html>\n',
    );

@Controller('console')
export class ConsoleController {
  @Get()
  @Public()
  @ApiOperation({
    summary: "The owner's console",
    description:
      'For browsers: the console, which signs in through `/oauth/authorize` (its own public client, with PKCE) and uses this API.',
    security: [],
    responses: { 200: { description: 'The page.', body: null, contentType: 'text/html' } },
  })
  page(@Res() reply: FileReply): void {
    reply
      .status(200)
      .header('content-type', 'text/html; charset=utf-8')
      // A new build names new files: always asked again, answered from the build.
      .header('cache-control', 'no-cache')
      .header('content-security-policy', pagePolicy)
      .header('x-frame-options', 'DENY')
      .header('x-content-type-options', 'nosniff')
      // The sign-in's code comes back in the page's address: never handed on.
      .header('referrer-policy', 'no-referrer')
      .send(consolePage());
  }

  @Get('assets/:file')
  @Public()
  @ApiOperation({
    summary: "The console's script, style, icon and texts",
    description: 'Named after their content: kept by browsers for a year.',
    security: [],
    responses: {
      200: { description: "The script, the style sheet, the icon or a language's texts (JSON).", body: null },
      404: { description: 'No such file (an older build): a page.', body: null, contentType: 'text/html' },
    },
  })
  asset(@Param('file') file: string, @Res() reply: FileReply): void {
    const asset = builtAsset(builtBrowserFiles('console'), file);
    if (!asset) return notFound(reply);
    sendBuiltAsset(reply, asset);
  }
}

function consolePage(): Buffer {
  const { page } = builtBrowserFiles('console');
  if (!page) throw new Error('the console was built without its page (dist/apps/console/index.html)');
  return page;
}
