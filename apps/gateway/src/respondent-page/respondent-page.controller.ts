import { createHash } from 'node:crypto';
import { Controller, Get, Headers, Inject, Param, Req, Res } from '@nestjs/common';
import { regionBaseUrls } from '@formline/config';
import { countResponses, type FormPage, getFormPage, type RegionBaseUrls } from '@formline/contracts';
import { DomainError, ErrorCode } from '@formline/errors';
import {
  embedOriginLimits,
  embedOriginProblem,
  type FormDefinition,
  imageIdFromHref,
  imageReferences,
  mayRespond,
} from '@formline/form-definition';
import { RpcClient } from '@formline/messaging';
import { Public, ApiOperation, RequestId } from '@formline/http-edge';
import { GATEWAY_CONFIG, type GatewayConfig } from '@formline/app-config';
import {
  missingFormPage,
  pageDirection,
  pageLanguageTag,
  pageTexts,
  respondentPage,
  withFormMessages,
} from '@formline/respondent-page';
import { builtAsset, builtBrowserFiles, sendBuiltAsset } from '../browser-files/built-browser-files';

interface PageReply {
  status(code: number): PageReply;
  header(name: string, value: string): PageReply;
  send(body?: string | Buffer): void;
}

const formIdPattern = /^[A-Za-z0-9_-]{1,64}$/;
const page = (description: string) => ({ description, body: null, contentType: 'text/html' });

// `_links.display` of every form, `{base_url}/to/{form_id}`: the page where
// respondents answer the form. The link is on the default region's address
// (forms read the same through both), so the other region's gateway redirects
// (307, query kept: it carries the hidden fields) to the page in the form's own
// region, which holds its responses: the respondent's browser then talks only to
// that region, and the welcome screen's submission count is the real one.
// Private forms are shown to no anonymous visitor (a page has no token): they
// answer like unknown ones.
@Controller('to')
export class RespondentPageController {
  private readonly baseUrls: RegionBaseUrls;

  constructor(
    private readonly rpc: RpcClient,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
  ) {
    this.baseUrls = regionBaseUrls(config);
  }

  @Get(':form_id')
  @Public()
  @ApiOperation({
    summary: "The form's page, for respondents",
    description:
      "For browsers: the public form to fill in (`_links.display`). It submits to the form's region.",
    security: [],
    responses: {
      200: { ...page('The page.'), headers: { ETag: 'Send it back in If-None-Match to revalidate.' } },
      304: { description: 'The page has not changed since the ETag sent.', body: null },
      307: {
        description: "The form's account lives in the other region: its page is there.",
        body: null,
        headers: { Location: "The page in the form's region, with the same query." },
      },
      404: page('No such form, or a private one.'),
    },
  })
  async show(
    @RequestId() requestId: string,
    @Param('form_id') formId: string,
    @Headers('if-none-match') ifNoneMatch: string | undefined,
    @Req() request: { url: string },
    @Res() reply: PageReply,
  ): Promise<void> {
    const found = formIdPattern.test(formId) ? await this.findPublic(formId, requestId) : undefined;
    if (!found) {
      const missing = missingFormPage(pageTexts(undefined));
      return this.send(reply, 404, missing.html, {
        // A private form may be made public at any time: never kept without asking again.
        'cache-control': 'no-cache',
        'content-security-policy': missing.contentSecurityPolicy,
      });
    }
    if (found.region !== this.config.REGION) {
      const query = request.url.includes('?') ? request.url.slice(request.url.indexOf('?')) : '';
      // An account never changes region: browsers may keep the redirect a while.
      return this.send(reply, 307, undefined, {
        location: `${this.baseUrls[found.region]}/to/${formId}${query}`,
        'cache-control': 'public, max-age=300',
      });
    }
    const definition = found.definition as FormDefinition;
    const settings = definition.settings as {
      language?: string;
      show_number_of_submissions?: boolean;
      meta?: { title?: string; description?: string; allow_indexing?: boolean; image?: { href?: string } };
      embed_origins?: unknown;
    };
    const language = settings.language ?? definition.language;
    const texts = withFormMessages(pageTexts(language), definition.messages);
    const assets = builtBrowserFiles('respondent-web').byRole;
    const rendered = respondentPage({
      head: {
        title: settings.meta?.title ?? definition.title,
        description: settings.meta?.description,
        image: settings.meta?.image?.href,
        language: pageLanguageTag(language),
        direction: pageDirection(language),
        indexable: settings.meta?.allow_indexing !== false,
      },
      data: {
        formId,
        form: definition,
        submitUrl: `${this.baseUrls[found.region]}/forms/${formId}/submissions`,
        texts,
        submissionCount: settings.show_number_of_submissions
          ? await this.count(formId, requestId)
          : undefined,
        images: this.imagePaths(definition),
      },
      theme: found.theme,
      backgroundImage: found.theme.background?.href && this.imagePath(found.theme.background.href),
      scriptPath: `/to/assets/${assets.script.fileName}`,
      iconPath: `/to/assets/${assets.icon.fileName}`,
      embedOrigins: embedOriginsOf(settings.embed_origins),
    });
    // The policy too: a changed list of embed origins is a changed page.
    const etag = `"${createHash('sha256')
      .update(rendered.html)
      .update(rendered.contentSecurityPolicy)
      .digest('base64url')
      .slice(0, 27)}"`;
    const headers = {
      etag,
      // Stored, but checked again on every visit: a changed form shows at once.
      'cache-control': 'public, no-cache',
      'content-security-policy': rendered.contentSecurityPolicy,
      ...(rendered.indexable ? {} : { 'x-robots-tag': 'noindex, nofollow' }),
    };
    if (ifNoneMatch?.split(',').some((tag) => tag.trim() === etag))
      return this.send(reply, 304, undefined, headers);
    this.send(reply, 200, rendered.html, headers);
  }

  @Get('assets/:file')
  @Public()
  @ApiOperation({
    summary: "The respondent page's script and icon",
    description: 'Named after their content: kept by browsers for a year.',
    security: [],
    responses: {
      200: { description: 'The script (text/javascript) or the icon (image/svg+xml).', body: null },
      404: page('No such file (an older version of the script).'),
    },
  })
  asset(@Param('file') file: string, @Res() reply: PageReply): void {
    const asset = builtAsset(builtBrowserFiles('respondent-web'), file);
    if (!asset) {
      const missing = missingFormPage(pageTexts(undefined));
      this.send(reply, 404, missing.html, {
        'cache-control': 'no-store',
        'content-security-policy': missing.contentSecurityPolicy,
      });
      return;
    }
    sendBuiltAsset(reply, asset);
  }

  private async findPublic(formId: string, requestId: string): Promise<FormPage | undefined> {
    try {
      const found = await this.rpc.request(getFormPage, { formId }, requestId);
      return mayRespond(found, undefined) ? found : undefined;
    } catch (error) {
      if (error instanceof DomainError && error.code === ErrorCode.FormNotFound) return undefined;
      throw error;
    }
  }

  // The form's images as paths on this gateway's own address (images are
  // shared by both regions): the page, served here, loads them from its own
  // origin whichever region's address the form names them by.
  private imagePaths(definition: FormDefinition): Record<string, string> {
    const paths = new Map<string, string>();
    for (const { href } of imageReferences(definition)) {
      const path = this.imagePath(href);
      if (path !== undefined) paths.set(href, path);
    }
    return Object.fromEntries(paths);
  }

  // One of our images (its address on either region's base) as a path here; anything else: none.
  private imagePath(href: string): string | undefined {
    const id = imageIdFromHref(href, this.baseUrls);
    if (id === undefined) return undefined;
    // The base address has no trailing slash (regionBaseUrls trims it): only the root's path is one.
    const { pathname } = new URL(this.baseUrls[this.config.REGION]);
    return `${pathname === '/' ? '' : pathname}/images/${id}`;
  }

  // The page is served only in the form's region, which holds its responses.
  private async count(formId: string, requestId: string): Promise<number | undefined> {
    try {
      return (await this.rpc.request(countResponses, { formId }, requestId)).count;
    } catch {
      return undefined; // the welcome screen does without it
    }
  }

  private send(
    reply: PageReply,
    status: number,
    html: string | undefined,
    headers: Record<string, string>,
  ): void {
    reply
      .status(status)
      .header('content-type', 'text/html; charset=utf-8')
      .header('x-content-type-options', 'nosniff')
      // Hidden fields ride in the page's address: never hand it on to other sites.
      .header('referrer-policy', 'no-referrer');
    for (const [name, value] of Object.entries(headers)) reply.header(name, value);
    reply.send(html);
  }
}

// The stored list, checked again before it goes into a header: only what
// the form definition's rules let in ever reaches frame-ancestors.
function embedOriginsOf(stored: unknown): string[] {
  if (!Array.isArray(stored)) return [];
  return stored
    .slice(0, embedOriginLimits.count)
    .filter(
      (origin): origin is string =>
        typeof origin === 'string' &&
        origin.length <= embedOriginLimits.length &&
        embedOriginProblem(origin) === undefined,
    );
}
