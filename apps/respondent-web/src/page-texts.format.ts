// The page's texts with their values put in. Each value goes in through a
// function, so a `$&` in a label stays text.

/** `{n}` and `{total}` as numbers. */
export const say = (text: string, values: Record<string, number>): string =>
  text.replace(/\{(n|total)\}/g, (_match, name: string) => String(values[name]));

/** `{label}`: a text naming a choice. */
export const naming = (text: string, label: string): string => text.replace('{label}', () => label);
