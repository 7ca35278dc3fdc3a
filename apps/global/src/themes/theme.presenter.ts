import type { ThemeResource } from '@formline/contracts';
import { defaultTheme } from './default-theme';
import type { StoredTheme } from './theme.repository';

// A stored theme as the Themes API shows it, Typeform's defaults filled in.
export function presentTheme(theme: StoredTheme): ThemeResource {
  const { properties } = theme;
  return {
    id: theme.id,
    name: theme.name,
    visibility: 'private',
    font: properties.font,
    colors: properties.colors,
    has_transparent_button: properties.has_transparent_button ?? false,
    ...(properties.background
      ? {
          background: {
            ...(properties.background.href ? { href: properties.background.href } : {}),
            layout: properties.background.layout ?? 'fullscreen',
            brightness: properties.background.brightness ?? 0,
          },
        }
      : {}),
    fields: { ...defaultTheme.fields, ...properties.fields },
    screens: { ...defaultTheme.screens, ...properties.screens },
    rounded_corners: properties.rounded_corners ?? defaultTheme.rounded_corners,
    created_at: theme.createdAt.toISOString(),
    updated_at: theme.updatedAt.toISOString(),
  };
}
