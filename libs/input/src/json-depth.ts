// How deep JSON text nests, found in one pass over the text before anything
// parses or walks it: a body nested thousands deep must be refused before a
// recursive walk (validation, cloning, storage) overflows the stack. Strings
// are skipped, escapes included, so brackets inside them do not count.
// Returns the offset at which the text first goes deeper than `max`, or -1.
export function offsetBeyondDepth(text: string, max: number): number {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // a backslash: the next character is escaped
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return i;
    } else if (c === 0x5d || c === 0x7d) {
      depth--;
    }
  }
  return -1;
}
