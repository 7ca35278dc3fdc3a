import { el } from './element.builder';

// One option of a choice, yes/no or scale question: its input, the key that
// picks it (shown unless the form hides key hints) and its text; a picture
// choice's picture above them.
export function optionLabel(
  input: HTMLInputElement,
  hint: string | undefined,
  text: string,
  options: { keyHints: boolean; image?: { node: Node | undefined; showLabel: boolean } },
): HTMLElement {
  const { image } = options;
  const row = [
    input,
    hint !== undefined && options.keyHints && el('span', { class: 'key', 'aria-hidden': 'true' }, hint),
    // A picture choice may hide its label: still read aloud, as the choice's name.
    el('span', { class: image?.showLabel === false ? 'option-text sr-only' : 'option-text' }, text),
  ];
  if (!image) return el('label', { class: 'option' }, ...row);
  return el(
    'label',
    { class: 'option picture-option' },
    image.node && el('span', { class: 'picture-frame' }, image.node),
    el('span', { class: 'picture-row' }, ...row),
  );
}

/** A, B, C...: the key that picks the option at this place. */
export const letter = (i: number): string => String.fromCharCode(65 + i);
