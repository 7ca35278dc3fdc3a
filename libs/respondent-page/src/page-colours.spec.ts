import { blend, contrast, readableOn, rgb, scrimOpacity, textOn } from './page-colours';
import { backgroundStyle, pageStyle, themeVariables, wallpaperVeil } from './page-style';

// The colours the page derives from a theme read on it (WCAG AA, 4.5:1),
// whatever the theme's own colours; the background picture's style.
describe("the page's colours", () => {
  const ratio = (a: string, b: string) => contrast(rgb(a), rgb(b));
  const variable = (variables: string, name: string) => new RegExp(`--${name}:([^;]+)`).exec(variables)![1];
  const theme = (colors: { question: string; answer: string; button: string; background: string }) => ({
    id: 't',
    name: 'T',
    visibility: 'private' as const,
    font: 'Karla' as const,
    colors,
    has_transparent_button: false,
    fields: { alignment: 'left' as const, font_size: 'medium' as const },
    screens: { alignment: 'center' as const, font_size: 'small' as const },
    rounded_corners: 'small' as const,
  });
  const themes = [
    { question: '#3D3D3D', answer: '#4FB0AE', button: '#4FB0AE', background: '#FFFFFF' }, // Typeform's default
    { question: '#FFFFFF', answer: '#F5C518', button: '#F5C518', background: '#101820' },
    { question: '#000000', answer: '#FFFF00', button: '#FFFFFF', background: '#FFFFEE' },
    { question: '#222222', answer: '#777777', button: '#0000FF', background: '#808080' },
  ];

  it('writes button text in black or white, whichever reads better', () => {
    expect(textOn('#4FB0AE')).toBe('#000000'); // white on it reads 2.5:1 only
    expect(textOn('#101820')).toBe('#FFFFFF');
    expect(textOn('#FFF')).toBe('#000000');
  });

  it.each(themes)('derives answer and muted text colours that read on the background (%o)', (colors) => {
    const variables = themeVariables(theme(colors));
    const answerText = variable(variables, 'answer-text');
    expect(ratio(answerText, colors.background)).toBeGreaterThanOrEqual(4.5);
    // Also on a picked option, tinted with the answer colour.
    const tinted = blend(rgb(colors.answer), rgb(colors.background), 0.28);
    expect(contrast(rgb(answerText), tinted)).toBeGreaterThanOrEqual(4.5);
    expect(ratio(variable(variables, 'muted'), colors.background)).toBeGreaterThanOrEqual(4.5);
    expect(ratio(variable(variables, 'button-text'), colors.button)).toBeGreaterThanOrEqual(
      Math.max(ratio('#000000', colors.button), ratio('#FFFFFF', colors.button)) - 1e-9,
    );
  });

  it('keeps a readable colour as it is', () => {
    expect(readableOn('#000000', ['#FFFFFF'])).toBe('#000000');
  });

  // The themes whose own words read on their background (a veil cannot do better than that).
  it.each(themes.slice(0, 3))('veils a wallpaper so that text reads on any picture (%o)', (colors) => {
    const alpha = scrimOpacity([colors.question], colors.background);
    for (const pixel of ['#000000', '#FFFFFF', '#336699', colors.question]) {
      const shown = blend(rgb(colors.background), rgb(pixel), alpha);
      expect(contrast(rgb(colors.question), shown)).toBeGreaterThanOrEqual(4.5);
    }
    expect(alpha).toBeLessThan(1); // the picture still shows
  });

  it("makes the question's panel opaque when the theme itself reads poorly", () => {
    expect(scrimOpacity(['#222222'], '#808080')).toBe(1);
  });

  it.each(themes.slice(0, 3))(
    "puts a wallpaper's question on a panel on which all its words read, under a light veil (%o)",
    (colors) => {
      const variables = themeVariables(theme(colors));
      const scrim = Number(variable(variables, 'scrim'));
      expect(variable(variables, 'panel')).toBe(`rgba(${rgb(colors.background).join(',')},${scrim})`);
      for (const words of ['question', 'answer-text', 'muted']) {
        for (const pixel of ['#000000', '#FFFFFF', '#336699']) {
          const veiled = blend(rgb(colors.background), rgb(pixel), wallpaperVeil);
          const panel = blend(rgb(colors.background), veiled, scrim);
          expect(contrast(rgb(variable(variables, words)), panel)).toBeGreaterThanOrEqual(4.5);
        }
      }
    },
  );

  it('shows a wallpaper through a light veil, and its question on the panel', () => {
    expect(wallpaperVeil).toBeLessThanOrEqual(0.3);
    expect(pageStyle).toContain(
      `main[data-large^=wallpaper] .layout-picture::after{content:"";position:absolute;inset:0;background:var(--background);opacity:${wallpaperVeil}}`,
    );
    expect(pageStyle).toContain('main[data-large^=wallpaper]>:not(.layout-picture){background:var(--panel);');
    expect(pageStyle).toContain('main[data-small^=wallpaper]>:not(.layout-picture){background:var(--panel);');
  });

  it("lays the theme's background picture out as the theme says, with its brightness", () => {
    const path = '/images/abc123';
    const style = (layout: 'fullscreen' | 'repeat' | 'no-repeat', brightness: number) =>
      backgroundStyle({ href: 'https://us.example/images/abc123', layout, brightness }, path);
    expect(style('fullscreen', 0)).toContain(
      `background-image:url("${path}/background/default");background-size:cover`,
    );
    expect(style('fullscreen', 0)).toContain(
      `@media (max-width:600px){body::before{background-image:url("${path}/background/mobile")}}`,
    );
    expect(style('fullscreen', 0)).not.toContain('body::after');
    expect(style('repeat', 0)).toContain('background-repeat:repeat');
    expect(style('no-repeat', 0)).toContain('background-position:center;background-repeat:no-repeat');
    expect(style('fullscreen', -0.4)).toContain(
      'body::after{content:"";position:fixed;inset:0;z-index:-2;background:#000;opacity:0.4}',
    );
    expect(style('fullscreen', 0.25)).toContain('background:#FFF;opacity:0.25');
  });

  it('draws no background picture that is not one of our images, nor a path that could end the CSS string', () => {
    const background = {
      href: 'https://elsewhere.example/a.png',
      layout: 'fullscreen' as const,
      brightness: 0,
    };
    expect(backgroundStyle(background, undefined)).toBe('');
    expect(backgroundStyle(undefined, '/images/abc')).toBe('');
    expect(backgroundStyle(background, '/images/abc")}body{display:none')).toBe('');
  });
});
