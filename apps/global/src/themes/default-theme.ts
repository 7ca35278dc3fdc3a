import type { ThemeResource } from '@formline/contracts';

// The built-in theme every form has until it names another (`theme.href` is
// `{base_url}/themes/default`): public, the same for every account, and not a
// database row, so it can be neither changed nor deleted. Typeform's defaults.
export const defaultThemeId = 'default';

export const defaultTheme: ThemeResource = {
  id: defaultThemeId,
  name: 'Default',
  visibility: 'public',
  font: 'Source Sans Pro',
  colors: { question: '#3D3D3D', answer: '#4FB0AE', button: '#4FB0AE', background: '#FFFFFF' },
  has_transparent_button: false,
  fields: { alignment: 'left', font_size: 'medium' },
  screens: { alignment: 'center', font_size: 'small' },
  rounded_corners: 'small',
};
