import { Injectable } from '@nestjs/common';
import {
  type Page,
  type ThemeBody,
  themeBodySchema,
  themePatchSchema,
  type ThemeResource,
} from '@formline/contracts';
import { concurrentChangeError, DomainError, ErrorCode, detailsFromIssues } from '@formline/errors';
import type { z } from 'zod';
import { FormImagesCheck } from '../images/form-images.check';
import { defaultTheme, defaultThemeId } from './default-theme';
import { presentTheme } from './theme.presenter';
import { type StoredTheme, ThemeRepository } from './theme.repository';

// Typeform's Themes API. An account sees the built-in default theme (public,
// first in every listing, never changed or deleted) and its own themes; another
// account's theme is not found.
@Injectable()
export class ThemeService {
  constructor(
    private readonly themes: ThemeRepository,
    private readonly images: FormImagesCheck,
  ) {}

  async create(accountId: string, body: unknown): Promise<ThemeResource> {
    const theme = parse(themeBodySchema, body);
    await this.checkBackground(accountId, theme);
    return presentTheme(await this.themes.create(accountId, theme));
  }

  async get(accountId: string, themeId: string): Promise<ThemeResource> {
    if (themeId === defaultThemeId) return defaultTheme;
    const theme = await this.themes.findOwned(accountId, themeId);
    if (!theme) throw notFound(themeId);
    return presentTheme(theme);
  }

  // The theme a form shows: its own account's theme named by `theme.href`,
  // else the default (a theme deleted since, or another account's, falls back).
  async forForm(accountId: string, href: string | undefined): Promise<ThemeResource> {
    const themeId = href ? themeIdFromHref(href) : undefined;
    if (!themeId || themeId === defaultThemeId) return defaultTheme;
    const theme = await this.themes.findOwned(accountId, themeId);
    return theme ? presentTheme(theme) : defaultTheme;
  }

  async list(accountId: string, query: { page: number; pageSize: number }): Promise<Page<ThemeResource>> {
    // Position 0 of the listing is the default theme, then the account's own.
    const start = (query.page - 1) * query.pageSize;
    const { total, themes } = await this.themes.list(accountId, {
      skip: Math.max(0, start - 1),
      take: start === 0 ? query.pageSize - 1 : query.pageSize,
    });
    const items = [...(start === 0 ? [defaultTheme] : []), ...themes.map(presentTheme)];
    return { total_items: total + 1, page_count: Math.ceil((total + 1) / query.pageSize), items };
  }

  async replace(accountId: string, themeId: string, body: unknown): Promise<ThemeResource> {
    refuseBuiltIn(themeId);
    const replacement = parse(themeBodySchema, body);
    await this.checkBackground(accountId, replacement);
    const theme = await this.themes.replace(accountId, themeId, replacement);
    if (!theme) throw notFound(themeId);
    return presentTheme(theme);
  }

  // A merge of the change into the theme as it is, written only if no other
  // write came between the read and the write (else merged again, a few
  // times): two PATCHes of different colours at once both land.
  async patch(accountId: string, themeId: string, body: unknown): Promise<ThemeResource> {
    refuseBuiltIn(themeId);
    const changes = parse(themePatchSchema, body);
    for (let tries = 0; tries < patchTries; tries++) {
      const current = await this.themes.findOwned(accountId, themeId);
      if (!current) throw notFound(themeId);
      const merged = mergedTheme(current, changes);
      await this.checkBackground(accountId, merged);
      const theme = await this.themes.replaceIfUnchanged(accountId, themeId, merged, current);
      if (!theme) throw notFound(themeId);
      if (theme !== 'changed') return presentTheme(theme);
    }
    throw concurrentChangeError();
  }

  async delete(accountId: string, themeId: string): Promise<void> {
    refuseBuiltIn(themeId);
    if (!(await this.themes.delete(accountId, themeId))) throw notFound(themeId);
  }

  // A theme's background picture, like a form's pictures, must be one of the
  // account's images: the page shows nothing else, and an outside address
  // kept here would only surprise later.
  private async checkBackground(accountId: string, theme: ThemeBody): Promise<void> {
    const href = theme.background?.href;
    if (!href) return;
    await this.images.checkReferences(accountId, [{ path: 'background.href', href }], 'the theme');
  }
}

// How many times a PATCH merges again when other writes keep coming between.
const patchTries = 5;

function mergedTheme(current: StoredTheme, changes: z.output<typeof themePatchSchema>): ThemeBody {
  return {
    ...current.properties,
    name: changes.name ?? current.name,
    font: changes.font ?? current.properties.font,
    colors: { ...current.properties.colors, ...changes.colors },
    ...pick(changes, ['has_transparent_button', 'rounded_corners']),
    fields: { ...current.properties.fields, ...changes.fields },
    screens: { ...current.properties.screens, ...changes.screens },
    ...(changes.background === undefined
      ? {}
      : { background: changes.background && { ...current.properties.background, ...changes.background } }),
  };
}

// `{base_url}/themes/{id}` (either region's address, or any host: only the path counts).
export function themeIdFromHref(href: string): string | undefined {
  if (!URL.canParse(href)) return undefined;
  const match = /^\/themes\/([A-Za-z0-9_-]{1,64})\/?$/.exec(new URL(href).pathname);
  return match?.[1];
}

function pick<T extends object, K extends keyof T>(source: T, keys: readonly K[]): Partial<Pick<T, K>> {
  const picked: Partial<Pick<T, K>> = {};
  for (const key of keys) if (source[key] !== undefined) picked[key] = source[key];
  return picked;
}

function refuseBuiltIn(themeId: string): void {
  if (themeId === defaultThemeId) {
    throw new DomainError(ErrorCode.Conflict, 'The built-in default theme cannot be changed or deleted.');
  }
}

function notFound(themeId: string): DomainError {
  return new DomainError(ErrorCode.ThemeNotFound, `Non existing theme with id ${themeId}.`);
}

function parse<S extends z.ZodType>(schema: S, body: unknown): z.output<S> {
  const parsed = schema.safeParse(body);
  if (!parsed.success) {
    throw new DomainError(
      ErrorCode.ValidationError,
      'The theme is invalid.',
      detailsFromIssues(parsed.error.issues, 'body'),
    );
  }
  return parsed.data;
}
