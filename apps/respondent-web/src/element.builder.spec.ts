import { focusFirst, mayTakeFocus } from './element.builder';

describe('the page taking the focus', () => {
  const framed = (focused: boolean) => ({
    top: {} as Window,
    self: {} as Window,
    document: { hasFocus: () => focused },
  });

  it('takes it as the top page, and in a frame only once the respondent is in the frame', () => {
    expect(mayTakeFocus()).toBe(true);
    expect(mayTakeFocus(framed(false))).toBe(false);
    expect(mayTakeFocus(framed(true))).toBe(true);
  });

  it('focuses the first enabled control, or the one marked to take it first', () => {
    document.body.innerHTML =
      '<div id="screen"><button disabled>No</button><input id="first"><button data-autofocus id="marked">Go</button></div>';
    const screen = document.getElementById('screen')!;
    focusFirst(screen);
    expect(document.activeElement?.id).toBe('marked');
    screen.querySelector('[data-autofocus]')!.removeAttribute('data-autofocus');
    focusFirst(screen);
    expect(document.activeElement?.id).toBe('first');
  });
});
