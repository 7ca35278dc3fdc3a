import { blockMedia, videoLink } from './block-layout.rules';

// Where the page puts a block's picture for each viewport, after Typeform's
// layout, and how it links a video (its browser test sees them drawn).
describe("the page's layouts", () => {
  const picture = { type: 'image' as const, href: 'https://us.example/images/abc' };
  const other = { type: 'image' as const, href: 'https://us.example/images/def' };
  const video = { type: 'video' as const, href: 'https://youtu.be/dQw4w9WgXcQ', scale: 0.6 as const };

  it('shows an attachment without a layout under the title, as before layouts', () => {
    expect(blockMedia({ attachment: picture })).toEqual({ inline: picture });
    expect(blockMedia({})).toEqual({ inline: undefined });
  });

  it('places a split or a float beside the question on wide screens and stacks it on phones', () => {
    expect(blockMedia({ layout: { type: 'split', placement: 'right', attachment: picture } })).toEqual({
      placed: { attachment: picture, large: 'split-right', small: 'stack-right' },
      inline: undefined,
    });
    expect(blockMedia({ layout: { type: 'float', attachment: picture } }).placed).toMatchObject({
      large: 'float-left',
      small: 'stack-left',
    });
  });

  it('keeps a wallpaper behind the question on every screen', () => {
    expect(blockMedia({ layout: { type: 'wallpaper', attachment: picture } }).placed).toMatchObject({
      large: 'wallpaper-left',
      small: 'wallpaper-left',
    });
  });

  it('follows the viewport overrides, type and placement each on its own', () => {
    const placed = blockMedia({
      layout: {
        type: 'split',
        placement: 'left',
        attachment: picture,
        viewport_overrides: { small: { type: 'wallpaper' }, large: { placement: 'right' } },
      },
    }).placed;
    expect(placed).toMatchObject({ large: 'split-right', small: 'wallpaper-left' });
  });

  it("lays out the block's own picture when the layout names none, and shows both when both are named", () => {
    expect(blockMedia({ attachment: picture, layout: { type: 'wallpaper' } })).toEqual({
      placed: { attachment: picture, large: 'wallpaper-left', small: 'wallpaper-left' },
      inline: undefined,
    });
    expect(blockMedia({ attachment: other, layout: { type: 'split', attachment: picture } })).toMatchObject({
      placed: { attachment: picture },
      inline: other,
    });
    expect(blockMedia({ layout: { type: 'split' } })).toEqual({ inline: undefined });
  });

  it('places a video as a picture, but stacks a wallpaper video above the question', () => {
    expect(blockMedia({ attachment: video, layout: { type: 'split', placement: 'right' } })).toEqual({
      placed: { attachment: video, large: 'split-right', small: 'stack-right' },
      inline: undefined,
    });
    expect(blockMedia({ layout: { type: 'float', attachment: video } }).placed).toMatchObject({
      large: 'float-left',
      small: 'stack-left',
    });
    expect(blockMedia({ layout: { type: 'wallpaper', attachment: video } })).toEqual({
      placed: { attachment: video, large: 'stack-left', small: 'stack-left' },
      inline: undefined,
    });
    expect(
      blockMedia({
        layout: { type: 'split', attachment: video, viewport_overrides: { small: { type: 'wallpaper' } } },
      }).placed,
    ).toMatchObject({ large: 'split-left', small: 'stack-left' });
  });

  it('links a video to its own page on its site, whatever address the form names it by', () => {
    const watch = { site: 'YouTube', url: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ' };
    expect(videoLink('https://www.youtube.com/watch?v=dQw4w9WgXcQ&t=42')).toEqual(watch);
    expect(videoLink('https://youtube.com/embed/dQw4w9WgXcQ')).toEqual(watch);
    expect(videoLink('https://youtu.be/dQw4w9WgXcQ')).toEqual(watch);
    expect(videoLink('https://www.youtube.com/shorts/dQw4w9WgXcQ')).toEqual(watch);
    expect(videoLink('https://player.vimeo.com/video/76979871?h=8272103f6e')).toEqual({
      site: 'Vimeo',
      url: 'https://vimeo.com/76979871',
    });
    expect(videoLink('https://vimeo.com/76979871')).toEqual({
      site: 'Vimeo',
      url: 'https://vimeo.com/76979871',
    });
    // Nothing recognisable: no link (never a link to whatever the address says).
    expect(videoLink('https://www.youtube.com/watch?v=%22%3E%3Cscript')).toBeUndefined();
    expect(videoLink('https://www.youtube.com/')).toBeUndefined();
    expect(videoLink('https://evil.example/watch?v=dQw4w9WgXcQ')).toBeUndefined();
    expect(videoLink('not a url')).toBeUndefined();
  });
});
