// Colour arithmetic for the page's style: WCAG contrast, and the colours the
// page derives from a theme so that its text reads (4.5:1, WCAG AA) whatever
// colours the theme names. Inputs are checked hex colours (#RGB or #RRGGBB).

type Rgb = [number, number, number];

const black: Rgb = [0, 0, 0];
const white: Rgb = [255, 255, 255];

/** The contrast WCAG asks of text: 4.5:1. */
export const readableRatio = 4.5;

export function rgb(hex: string): Rgb {
  const digits =
    hex.length === 4 ? [...hex.slice(1)].map((d) => d + d) : [1, 3, 5].map((i) => hex.slice(i, i + 2));
  return digits.map((d) => parseInt(d, 16)) as Rgb;
}

export function hexOf(colour: Rgb): string {
  return `#${colour.map((c) => Math.round(c).toString(16).padStart(2, '0')).join('')}`.toUpperCase();
}

// WCAG relative luminance.
function luminance(colour: Rgb): number {
  const [r, g, b] = colour.map((channel) => {
    const c = channel / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

export function contrast(a: Rgb, b: Rgb): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (light + 0.05) / (dark + 0.05);
}

/** `over` painted with opacity `alpha` on `under`, as browsers blend (in sRGB). */
export function blend(over: Rgb, under: Rgb, alpha: number): Rgb {
  return over.map((c, i) => c * alpha + under[i] * (1 - alpha)) as Rgb;
}

/** Black or white, whichever reads better on the colour. */
export function textOn(colour: string): string {
  const c = rgb(colour);
  return contrast(black, c) >= contrast(white, c) ? '#000000' : '#FFFFFF';
}

/**
 * The colour, moved toward black or white (away from the backgrounds) just
 * enough to read on every one of them: a theme's answer colour as text.
 */
export function readableOn(colour: string, backgrounds: string[]): string {
  const under = backgrounds.map(rgb);
  const target = contrast(black, under[0]) >= contrast(white, under[0]) ? black : white;
  for (let step = 0; step <= 20; step++) {
    const candidate = blend(target, rgb(colour), step / 20);
    if (under.every((background) => contrast(candidate, background) >= readableRatio))
      return hexOf(candidate);
  }
  return hexOf(target);
}

/**
 * The opacity of the theme's background laid under the words on a wallpaper
 * picture (the question's panel) so that these text colours read on it
 * whatever the picture shows: the darkest and the lightest pixel bound every
 * other. Opaque when nothing less will do.
 */
export function scrimOpacity(texts: string[], background: string): number {
  const under = rgb(background);
  for (let step = 10; step < 20; step++) {
    const alpha = step / 20;
    const extremes = [blend(under, black, alpha), blend(under, white, alpha)];
    if (texts.every((text) => extremes.every((pixel) => contrast(rgb(text), pixel) >= readableRatio)))
      return alpha;
  }
  return 1;
}
