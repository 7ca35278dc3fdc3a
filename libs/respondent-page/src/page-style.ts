import type { ThemeResource } from '@formline/contracts';
import { blend, hexOf, readableOn, rgb, scrimOpacity, textOn } from './page-colours';

// The page's style: one static sheet driven by the theme's custom properties.
// The theme reaches CSS only through these checked values (hex colours, a
// font named from Typeform's list, fixed keywords, an image path of our own
// Images API), never as free text. Text colours derived from the theme are
// nudged until they read (4.5:1) on the theme's background.

const hex = (value: string, fallback: string) =>
  /^#(?:[0-9a-fA-F]{3}){1,2}$/.test(value) ? value : fallback;

const radius = { none: '0', small: '6px', large: '22px' } as const;
const titleSize = { small: '1.35rem', medium: '1.6rem', large: '2rem' } as const;

const startward = (alignment: string) => (alignment === 'left' ? 'start' : alignment);

export function themeVariables(theme: ThemeResource): string {
  const colors = {
    question: hex(theme.colors.question, '#3D3D3D'),
    answer: hex(theme.colors.answer, '#4FB0AE'),
    button: hex(theme.colors.button, '#4FB0AE'),
    background: hex(theme.colors.background, '#FFFFFF'),
  };
  const font = theme.font.replace(/[^A-Za-z0-9 ]/g, '');
  // The answer colour as text: on the background, and on a picked option's tint of it.
  const answerText = readableOn(colors.answer, [
    colors.background,
    hexOf(blend(rgb(colors.answer), rgb(colors.background), 0.28)),
  ]);
  const muted = readableOn(hexOf(blend(rgb(colors.question), rgb(colors.background), 0.75)), [
    colors.background,
  ]);
  // Behind the words on a wallpaper: the background colour as opaque as the text needs.
  const scrim = scrimOpacity([colors.question, answerText, muted], colors.background);
  return [
    `--question:${colors.question}`,
    `--answer:${colors.answer}`,
    `--answer-text:${answerText}`,
    `--muted:${muted}`,
    `--scrim:${scrim}`,
    `--panel:rgba(${rgb(colors.background).join(',')},${scrim})`,
    `--button:${theme.has_transparent_button ? 'transparent' : colors.button}`,
    `--button-text:${
      theme.has_transparent_button ? readableOn(colors.button, [colors.background]) : textOn(colors.button)
    }`,
    `--button-border:${colors.button}`,
    `--background:${colors.background}`,
    `--radius:${radius[theme.rounded_corners]}`,
    `--title-size:${titleSize[theme.fields.font_size]}`,
    `--screen-title-size:${titleSize[theme.screens.font_size]}`,
    // The theme's `left` is the edge where lines start: the right one on a right-to-left page.
    `--align:${startward(theme.fields.alignment)}`,
    `--screen-align:${startward(theme.screens.alignment)}`,
    // Only fonts the visitor already has: nothing is fetched from a font host.
    `--font:"${font}",system-ui,-apple-system,"Segoe UI",Roboto,sans-serif`,
  ].join(';');
}

// The picture of a block's layout (apps/respondent-web's block-layout.rules.ts decides which):
// <main> names the layout for wide screens and for phones, `data-large` and
// `data-small`, each `<split|wallpaper|float|stack>-<left|right>`, and the
// picture is a figure before the question. Split: one half of the screen
// beside the question (a band above it on a phone); wallpaper: the whole
// screen behind the question, under a light veil of the theme's background
// (--wallpaper-veil) so the picture shows, with the question itself on a
// panel of that background at the opacity that keeps its text readable
// whatever the picture (--panel, --scrim); float: beside the text, which
// flows around it; stack: above the question.
const wide = '(min-width:768px)';
// How much of the theme's background lies over a whole wallpaper: enough to
// tint it toward the theme, little enough that the picture is what one sees.
export const wallpaperVeil = 0.2;
const narrow = '(max-width:767.98px)';
function layoutRules(viewport: 'large' | 'small'): string {
  const at = (type: string) => `main[data-${viewport}^=${type}]`;
  const side = (type: string, placement: string) => `main[data-${viewport}=${type}-${placement}]`;
  const fill = (type: string) =>
    `${at(type)} .layout-picture picture{height:100%}${at(type)} .layout-picture img{width:100%;height:100%;max-height:none;object-fit:cover;border-radius:0}`;
  const split =
    viewport === 'large'
      ? `${at('split')}{max-width:none;margin:0;padding-inline:clamp(1.25rem,5vw,4rem)}` +
        `${side('split', 'left')}{margin-left:50vw}${side('split', 'right')}{margin-right:50vw}` +
        `${at('split')} .layout-picture{position:fixed;top:0;bottom:0;width:50vw;margin:0}` +
        `${side('split', 'left')} .layout-picture{left:0}${side('split', 'right')} .layout-picture{right:0}` +
        `${side('split', 'left')} .progress-wrap{left:50vw}${side('split', 'right')} .progress-wrap{right:50vw}` +
        // The buttons stay at the end of the question's half: its right edge, or its left one right to left.
        `html:not([dir=rtl]) ${side('split', 'right')} .navigation{right:calc(50vw + 1.25rem)}` +
        `html[dir=rtl] ${side('split', 'left')} .navigation{left:calc(50vw + 1.25rem)}`
      : `${at('split')}{padding-top:0}${at('split')} .layout-picture{height:38vh;margin:0 -1.25rem 1.25rem}`;
  return [
    split,
    fill('split'),
    `${at('wallpaper')} .layout-picture{position:fixed;inset:0;margin:0;z-index:-1}`,
    `${at('wallpaper')} .layout-picture::after{content:"";position:absolute;inset:0;background:var(--background);opacity:${wallpaperVeil}}`,
    `${at('wallpaper')}>:not(.layout-picture){background:var(--panel);padding:1.5rem 1.75rem;border-radius:var(--radius)}`,
    fill('wallpaper'),
    `${at('float')} .layout-picture{width:40%;margin:0 0 1rem}`,
    `${side('float', 'left')} .layout-picture{float:left;margin-right:1.5rem}`,
    `${side('float', 'right')} .layout-picture{float:right;margin-left:1.5rem}`,
    `${at('float')} .layout-picture img{width:100%}`,
    `${at('stack')} .layout-picture img{max-height:40vh}`,
  ].join('');
}
// A placed video's link fills its place whatever its `scale`; its poster takes the height left.
const layoutStyle = `.layout-picture{margin:0 0 1.25rem}.layout-picture picture{display:block}.layout-picture img{display:block;max-width:100%;height:auto;border-radius:var(--radius)}.layout-picture .video{height:100%;margin:0}.layout-picture .video-poster{flex:1 1 auto;min-height:8rem}
@media ${wide}{${layoutRules('large')}}
@media ${narrow}{${layoutRules('small')}}`;

// The theme's background picture (Typeform's `background`), from the Images
// API on the page's own origin, in its background sizes (the phone one on a
// phone), laid out as the theme says, under a black (brightness below 0) or
// white (above) veil as opaque as the brightness is far from 0.
export function backgroundStyle(
  background: ThemeResource['background'],
  imagePath: string | undefined,
): string {
  // The path is ours (`{base path}/images/{id}`); anything that could end the CSS string is refused.
  if (!background || !imagePath || !/^[\w/.~%-]{1,300}$/.test(imagePath)) return '';
  const url = (size: string) => `url("${imagePath}/background/${size}")`;
  const layouts = {
    fullscreen: 'background-size:cover;background-position:center;background-repeat:no-repeat',
    repeat: 'background-repeat:repeat',
    'no-repeat': 'background-position:center;background-repeat:no-repeat',
  } as const;
  const brightness = Math.max(-1, Math.min(1, Number(background.brightness) || 0));
  const veil =
    brightness === 0
      ? ''
      : `body::after{content:"";position:fixed;inset:0;z-index:-2;background:${brightness < 0 ? '#000' : '#FFF'};opacity:${Math.abs(brightness)}}`;
  return (
    `body::before{content:"";position:fixed;inset:0;z-index:-2;background-image:${url('default')};${layouts[background.layout]}}` +
    `@media (max-width:600px){body::before{background-image:${url('mobile')}}}${veil}`
  );
}

export const pageStyle = `
*,*::before,*::after{box-sizing:border-box}
[hidden]{display:none!important}
html,body{margin:0;min-height:100%}
body{background:var(--background);color:var(--question);font:18px/1.45 var(--font);-webkit-text-size-adjust:100%}
main{display:flow-root;max-width:44rem;margin:0 auto;padding:12vh 1.25rem 6rem;min-height:100vh}
.screen{text-align:var(--align)}
.welcome,.ending{text-align:var(--screen-align)}
h1{font-size:var(--title-size);font-weight:400;margin:0 0 .5rem;line-height:1.3}
.welcome h1,.ending h1{font-size:var(--screen-title-size);font-size:calc(var(--screen-title-size) * 1.3)}
h1:focus{outline:none}
.number{color:var(--answer-text);font-size:.8em;margin-inline-end:.25rem}
.required{color:var(--answer-text)}
.description{color:var(--muted);margin:0 0 1.25rem;white-space:pre-line}
.answer{margin:1.25rem 0 .5rem}
.text{width:100%;font:inherit;font-size:1.3rem;color:var(--answer-text);background:transparent;border:0;border-bottom:2px solid color-mix(in srgb,var(--answer) 35%,transparent);padding:.35rem 0;border-radius:0}
.text:focus{outline:none;border-bottom-color:var(--answer)}
textarea.text{resize:vertical}
select.text{border:2px solid color-mix(in srgb,var(--answer) 35%,transparent);border-radius:var(--radius);padding:.5rem}
.options{display:flex;flex-direction:column;gap:.5rem;max-width:26rem;border:0;padding:0;margin:0}
.screen .options{margin-inline:auto}
.block .options{margin-inline:0}
.option{display:flex;align-items:center;gap:.6rem;color:var(--answer-text);background:color-mix(in srgb,var(--answer) 10%,transparent);border:1px solid color-mix(in srgb,var(--answer) 45%,transparent);border-radius:var(--radius);padding:.5rem .75rem;cursor:pointer;min-height:2.75rem}
.option:has(input:checked){background:color-mix(in srgb,var(--answer) 28%,transparent);border-color:var(--answer)}
.option:has(input:focus-visible){outline:3px solid var(--answer);outline-offset:2px}
.option input{accent-color:var(--answer);width:1.1rem;height:1.1rem;margin:0}
.key{display:inline-block;min-width:1.5rem;text-align:center;font-size:.75rem;border:1px solid var(--answer);border-radius:4px;padding:0 .25rem}
.other{display:flex;flex-direction:column;gap:.35rem;padding:0;background:none;border:0}
.scale{flex-direction:row;flex-wrap:wrap;max-width:none}
.scale .option{flex:1 0 3rem;justify-content:center}
.scale-labels{display:flex;justify-content:space-between;font-size:.85rem;color:var(--muted)}
.actions{display:flex;align-items:center;gap:.75rem;margin-top:1.25rem}
.welcome .actions,.ending .actions{justify-content:var(--screen-align)}
button,.button{font:inherit;font-weight:600;cursor:pointer;border-radius:var(--radius);border:2px solid var(--button-border);padding:.55rem 1.2rem;min-height:2.75rem}
.primary{background:var(--button);color:var(--button-text);text-decoration:none}
button:focus-visible,.button:focus-visible{outline:3px solid var(--answer);outline-offset:3px}
button:disabled{opacity:.4;cursor:default}
.hint{font-size:.8rem;color:var(--muted)}
.error{color:#b00020;background:#fff;display:inline-block;border-radius:4px;padding:0 .35rem;margin:.25rem 0;font-size:.95rem}
.error:empty{display:none}
.facts{font-size:.9rem;color:var(--muted);margin-top:1.25rem}
.progress-wrap{position:fixed;left:0;right:0;bottom:0;padding:.5rem 1.25rem;background:var(--background)}
.progress{height:6px;border-radius:3px;background:color-mix(in srgb,var(--answer) 20%,transparent);overflow:hidden}
.progress-fill{height:100%;background:var(--answer)}
.progress-label{margin:.25rem 0 0;font-size:.8rem}
.navigation{position:fixed;inset-inline-end:1.25rem;bottom:3.5rem}
.nav{padding:.35rem .8rem;background:var(--button);color:var(--button-text)}
.attachment{margin:0 0 1.25rem}
.attachment picture,.picture-frame picture{display:block}
.attachment img{display:block;max-width:100%;max-height:50vh;height:auto;border-radius:var(--radius)}
.pictures{display:grid;grid-template-columns:repeat(auto-fill,minmax(10rem,1fr));max-width:44rem}
.pictures.supersized{grid-template-columns:repeat(auto-fill,minmax(16rem,1fr))}
.picture-option{flex-direction:column;align-items:stretch;padding:.5rem}
.picture-frame{display:block;aspect-ratio:1;overflow:hidden;border-radius:calc(var(--radius) / 2)}
.picture-frame picture{height:100%}
.picture-frame img{display:block;width:100%;height:100%;object-fit:contain}
.picture-row{display:flex;align-items:center;gap:.6rem}
.file-answer{position:relative}
.file{position:absolute;left:0;top:0;width:1px;height:1px;opacity:0}
.file-label{display:inline-flex;align-items:center;min-height:2.75rem;padding:.55rem 1.2rem;border:2px dashed var(--answer);border-radius:var(--radius);color:var(--answer-text);font-weight:600;cursor:pointer}
.file:focus-visible+.file-label{outline:3px solid var(--answer);outline-offset:3px}
.file-status{margin:.5rem 0 0;font-size:.95rem}
.video{display:flex;flex-direction:column;gap:.5rem;width:100%;margin:0 0 1.25rem;padding:.5rem;color:var(--answer-text);text-decoration:none;border:1px solid color-mix(in srgb,var(--answer) 45%,transparent);border-radius:var(--radius)}
.video:focus-visible{outline:3px solid var(--answer);outline-offset:3px}
.video-poster{display:grid;place-items:center;aspect-ratio:16/9;border-radius:calc(var(--radius) / 2);background:#111;color:#FFF;font-size:2.5rem}
.video-text{font-weight:600}
.secondary{display:inline-flex;align-items:center;background:transparent;color:var(--answer-text);border-color:var(--answer);text-decoration:none;margin-bottom:1rem}
.line-label{display:block;margin:.75rem 0 .25rem}
.note{font-size:.9rem;color:var(--muted);margin:.5rem 0 0}
.sr-only{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
.missing{text-align:center}
@media (max-width:480px){body{font-size:16px}main{padding-top:8vh}.hint{display:none}.pictures,.pictures.supersized{grid-template-columns:repeat(2,minmax(0,1fr))}}
@media (prefers-reduced-motion:no-preference){.screen{animation:rise .25s ease-out}@keyframes rise{from{opacity:0;transform:translateY(12px)}to{opacity:1}}}
${layoutStyle}
`;
