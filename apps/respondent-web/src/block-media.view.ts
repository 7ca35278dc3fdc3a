import type { Field } from '@formline/form-definition';
import type { PageTexts } from '@formline/form-logic';
import { blockMedia } from './block-layout.rules';
import { el } from './element.builder';
import { description as altText, picture } from './picture.view';
import { videoCard } from './video-card.view';

export interface StagedMedia {
  /** The layout's picture or video link, a figure placed beside or behind the screen. */
  placed?: HTMLElement;
  /** What shows under the title: a picture, or a video's link. */
  inline?: Node;
}

// The media of a question or screen (block-layout.rules.ts says where). A
// picture's alternative text is the form's description of it.
export function stagedMedia(
  block: Pick<Field, 'attachment' | 'layout'>,
  images: Record<string, string>,
  t: PageTexts,
): StagedMedia {
  const { placed, inline } = blockMedia(block);
  const placedPicture =
    placed &&
    (placed.attachment.type === 'video'
      ? videoCard(placed.attachment, t, true)
      : picture(placed.attachment, images, 'attachment', altText(placed.attachment)));
  const inlineNode =
    inline?.type === 'video' ? videoCard(inline, t) : picture(inline, images, 'attachment', altText(inline));
  return {
    placed:
      placed && placedPicture
        ? el(
            'figure',
            { class: 'layout-picture', 'data-large': placed.large, 'data-small': placed.small },
            placedPicture,
          )
        : undefined,
    inline:
      inline?.type === 'video' ? inlineNode : inlineNode && el('figure', { class: 'attachment' }, inlineNode),
  };
}
