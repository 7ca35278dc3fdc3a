import type { Field } from '@formline/form-definition';

// Where a block's media go on the page, after Typeform's `layout` (no DOM
// here: the page's script and its unit tests share it). A layout's picture
// (its own attachment, else the block's) is placed for each viewport:
// `split` beside the question, `wallpaper` behind it, `float` beside the
// text, `stack` above it; on a phone, split and float stack unless the
// layout's `viewport_overrides.small` says otherwise. A block without a
// layout shows its attachment under its title, as before layouts. A video
// (a poster linking to the video's own site: the page loads nothing from
// other sites) is placed as a picture is, except that a wallpaper video
// stacks above the question: a poster behind the words could not be clicked.

type Attachment = NonNullable<Field['attachment']>;
type Layout = NonNullable<Field['layout']>;
type LayoutType = Layout['type'];
type Viewport = 'large' | 'small';

export interface BlockMedia {
  /** The picture or video the layout places, and where: `<type>-<placement>` on each viewport. */
  placed?: { attachment: Attachment; large: string; small: string };
  /** Shown under the block's title. */
  inline?: Attachment;
}

function placement(layout: Layout, viewport: Viewport, media: Attachment): string {
  const override = layout.viewport_overrides?.[viewport];
  const stacksOnPhones = layout.type === 'split' || layout.type === 'float';
  const type: LayoutType = override?.type ?? (viewport === 'small' && stacksOnPhones ? 'stack' : layout.type);
  const shown = type === 'wallpaper' && media.type === 'video' ? 'stack' : type;
  return `${shown}-${override?.placement ?? layout.placement ?? 'left'}`;
}

export function blockMedia(block: Pick<Field, 'attachment' | 'layout'>): BlockMedia {
  const { layout, attachment } = block;
  const media = layout?.attachment ?? attachment;
  if (!layout || !media) return { inline: attachment };
  return {
    placed: {
      attachment: media,
      large: placement(layout, 'large', media),
      small: placement(layout, 'small', media),
    },
    // A block with a picture of its own besides its layout's shows both.
    inline: layout.attachment && attachment !== layout.attachment ? attachment : undefined,
  };
}

export interface VideoLink {
  site: 'YouTube' | 'Vimeo';
  url: string;
}

const youtubeId = /^[A-Za-z0-9_-]{6,20}$/;
const vimeoId = /^\d{1,12}$/;

/**
 * A video attachment's address as the page links it: the video's own page on
 * its site (an embed address such as /embed/ID or player.vimeo.com/video/ID
 * opens the watch page instead), https only. Anything unexpected: undefined.
 */
export function videoLink(href: string): VideoLink | undefined {
  let url: URL;
  try {
    url = new URL(href);
  } catch {
    return undefined;
  }
  const segments = url.pathname.split('/').filter(Boolean);
  switch (url.hostname) {
    case 'youtube.com':
    case 'www.youtube.com': {
      const id =
        segments[0] === 'watch'
          ? url.searchParams.get('v')
          : ['embed', 'shorts', 'live', 'v'].includes(segments[0])
            ? segments[1]
            : undefined;
      return id && youtubeId.test(id)
        ? { site: 'YouTube', url: `https://www.youtube.com/watch?v=${id}` }
        : undefined;
    }
    case 'youtu.be':
      return segments[0] && youtubeId.test(segments[0])
        ? { site: 'YouTube', url: `https://www.youtube.com/watch?v=${segments[0]}` }
        : undefined;
    case 'vimeo.com':
    case 'player.vimeo.com': {
      const id = segments.find((segment) => vimeoId.test(segment));
      return id ? { site: 'Vimeo', url: `https://vimeo.com/${id}` } : undefined;
    }
    default:
      return undefined;
  }
}
