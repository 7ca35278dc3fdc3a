// The page's elements, built with text nodes only: whatever the form says is
// put on the page as text, never parsed as HTML.

export type Child = Node | string | undefined | false;

export function el(
  tag: string,
  attributes: Record<string, string | boolean | undefined> = {},
  ...children: Child[]
): HTMLElement {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === true) node.setAttribute(name, '');
    else if (typeof value === 'string') node.setAttribute(name, value);
  }
  for (const child of children) if (child) node.append(child);
  return node;
}

// A page in another page's frame (a form embedded on a site, the console's
// preview) moves the focus only once the respondent is in it: taking it as a
// screen shows would pull a keyboard or screen-reader user out of the page
// around the frame, unasked.
export function mayTakeFocus(
  view: { top: unknown; self: unknown; document: Pick<Document, 'hasFocus'> } = window,
): boolean {
  return view.top === view.self || view.document.hasFocus();
}

/** The element marked to take the focus first, else the first enabled control; only when the page may take it. */
export function focusFirst(container: HTMLElement): void {
  if (!mayTakeFocus()) return;
  const target =
    container.querySelector<HTMLElement>('[data-autofocus]') ??
    container.querySelector<HTMLElement>(
      'input:not([disabled]), select:not([disabled]), textarea:not([disabled]), button:not([disabled])',
    );
  target?.focus();
}
