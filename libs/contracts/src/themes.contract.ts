import { inputLimits } from '@formline/input';
import { z } from 'zod';
import { pageOf, pageRequestSchema } from './pagination';
import { defineRpc } from './rpc-contract';
import { Subjects } from './subjects';

// Typeform's Themes API: the fonts its clients may name (the official SDK
// refuses any other), colours as hex, and the layout options of a theme.
export const themeFonts = [
  'Acme',
  'Arial',
  'Arvo',
  'Avenir Next',
  'Bangers',
  'Cabin',
  'Cabin Condensed',
  'Courier',
  'Crete Round',
  'Dancing Script',
  'Exo',
  'Georgia',
  'Handlee',
  'Helvetica Neue',
  'Karla',
  'Lato',
  'Lekton',
  'Lobster',
  'Lora',
  'McLaren',
  'Montserrat',
  'Nixie One',
  'Old Standard TT',
  'Open Sans',
  'Oswald',
  'Playfair Display',
  'Quicksand',
  'Raleway',
  'Signika',
  'Sniglet',
  'Source Sans Pro',
  'Vollkorn',
] as const;

// `#RGB` or `#RRGGBB`: anchored, fixed length, nothing to backtrack over.
const hexColor = z
  .string()
  .max(7)
  .regex(/^#(?:[0-9a-fA-F]{3}){1,2}$/, 'a hex colour such as #3D3D3D');

const fontSizeAndAlignment = z.strictObject({
  alignment: z.enum(['left', 'center']).optional(),
  font_size: z.enum(['small', 'medium', 'large']).optional(),
});

const themeProperties = {
  name: z.string({ error: 'name is required' }).trim().min(1).max(255),
  font: z.enum(themeFonts, { error: `font is one of ${themeFonts.join(', ')}` }),
  colors: z.strictObject({
    question: hexColor,
    answer: hexColor,
    button: hexColor,
    background: hexColor,
  }),
  has_transparent_button: z.boolean().optional(),
  background: z
    .strictObject({
      href: z
        .url({ protocol: /^https?$/ })
        .max(inputLimits.url)
        .optional(),
      layout: z.enum(['fullscreen', 'repeat', 'no-repeat']).optional(),
      brightness: z.number().min(-1).max(1).optional(),
    })
    .nullish(),
  fields: fontSizeAndAlignment.optional(),
  screens: fontSizeAndAlignment.optional(),
  rounded_corners: z.enum(['none', 'small', 'large']).optional(),
};

// The body of POST /themes and PUT /themes/{id}: name, font and colours are
// required (as Typeform and its SDK require them); read-only properties a
// client got back (id, visibility, created_at, ...) are accepted and ignored.
export const themeBodySchema = z
  .object({
    ...themeProperties,
    id: z.string().max(inputLimits.id).optional(),
    visibility: z.string().max(inputLimits.name).optional(),
    created_at: z.string().max(inputLimits.name).optional(),
    updated_at: z.string().max(inputLimits.name).optional(),
  })
  .strict()
  .transform(({ id: _id, visibility: _v, created_at: _c, updated_at: _u, ...theme }) => theme);
export type ThemeBody = z.output<typeof themeBodySchema>;

// PATCH /themes/{id}: any of the properties; objects merge one level deep
// (`{colors: {button: "#000"}}` changes the button colour alone).
export const themePatchSchema = z.strictObject({
  name: themeProperties.name.optional(),
  font: themeProperties.font.optional(),
  colors: themeProperties.colors.partial().optional(),
  has_transparent_button: themeProperties.has_transparent_button,
  background: themeProperties.background,
  fields: themeProperties.fields,
  screens: themeProperties.screens,
  rounded_corners: themeProperties.rounded_corners,
});

// A theme as the Themes API shows it, every default filled.
export const themeResourceSchema = z.object({
  id: z.string(),
  name: z.string(),
  visibility: z.enum(['public', 'private']),
  font: z.enum(themeFonts),
  colors: z.object({ question: z.string(), answer: z.string(), button: z.string(), background: z.string() }),
  has_transparent_button: z.boolean(),
  background: z
    .object({
      href: z.string().optional(),
      layout: z.enum(['fullscreen', 'repeat', 'no-repeat']),
      brightness: z.number(),
    })
    .optional(),
  fields: z.object({
    alignment: z.enum(['left', 'center']),
    font_size: z.enum(['small', 'medium', 'large']),
  }),
  screens: z.object({
    alignment: z.enum(['left', 'center']),
    font_size: z.enum(['small', 'medium', 'large']),
  }),
  rounded_corners: z.enum(['none', 'small', 'large']),
  created_at: z.string().optional(),
  updated_at: z.string().optional(),
});
export type ThemeResource = z.output<typeof themeResourceSchema>;

const owned = { accountId: z.string().min(1) };
const ownedTheme = { ...owned, themeId: z.string().min(1).max(64) };

export const createTheme = defineRpc({
  subject: Subjects.formsThemeCreate,
  request: z.object({ ...owned, body: z.unknown() }),
  reply: themeResourceSchema,
});

export const listThemes = defineRpc({
  subject: Subjects.formsThemeList,
  request: pageRequestSchema.extend(owned),
  reply: pageOf(themeResourceSchema),
});

export const getTheme = defineRpc({
  subject: Subjects.formsThemeGet,
  request: z.object(ownedTheme),
  reply: themeResourceSchema,
});

export const replaceTheme = defineRpc({
  subject: Subjects.formsThemeReplace,
  request: z.object({ ...ownedTheme, body: z.unknown() }),
  reply: themeResourceSchema,
});

export const patchTheme = defineRpc({
  subject: Subjects.formsThemePatch,
  request: z.object({ ...ownedTheme, body: z.unknown() }),
  reply: themeResourceSchema,
});

export const deleteTheme = defineRpc({
  subject: Subjects.formsThemeDelete,
  request: z.object(ownedTheme),
  reply: z.object({ deleted: z.literal(true) }),
});
