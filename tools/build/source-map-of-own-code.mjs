// An app bundle's source map reduced to the repository's own code. Node reads
// a script's whole map when it loads the script (--enable-source-maps, which
// every app runs with), and holds it decoded: esbuild's map of a bundle also
// maps each line of the packages in node_modules to itself, nine tenths of
// its 4 MB, and held that way cost each app about 100 MB at rest. A stack
// trace through a package's code names the bundle's line instead, as it would
// name the package's file; every line of ours still names its TypeScript.
//
// A map's `mappings` is Base64 VLQ (the Source Map v3 format): lines split by
// `;`, segments by `,`, each segment 1, 4 or 5 numbers (generated column,
// source, line, column, name), each relative to the one before it.
const digits = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const digitValue = new Map([...digits].map((digit, value) => [digit, value]));

export function decodeSegment(text) {
  const values = [];
  let value = 0;
  let shift = 0;
  for (const char of text) {
    const digit = digitValue.get(char);
    if (digit === undefined) throw new Error(`not a Base64 VLQ digit: ${char}`);
    value += (digit & 31) << shift;
    if (digit & 32) shift += 5;
    else {
      values.push(value & 1 ? -(value >>> 1) : value >>> 1);
      value = 0;
      shift = 0;
    }
  }
  return values;
}

export function encodeSegment(values) {
  let text = '';
  for (const signed of values) {
    let value = signed < 0 ? (-signed << 1) | 1 : signed << 1;
    do {
      let digit = value & 31;
      value >>>= 5;
      if (value > 0) digit |= 32;
      text += digits[digit];
    } while (value > 0);
  }
  return text;
}

/** The map with only the segments, sources and names of `keepSource(path)`. */
export function sourceMapOfOwnCode(map, keepSource = (source) => !source.includes('node_modules/')) {
  const sourceIndex = map.sources.map(() => -1);
  const sources = [];
  map.sources.forEach((source, i) => {
    if (keepSource(source)) sourceIndex[i] = sources.push(source) - 1;
  });
  const nameIndex = new Map();
  const names = [];
  // Absolute values carried across segments and lines, as decoded and as written.
  const read = { source: 0, line: 0, column: 0, name: 0 };
  const written = { source: 0, line: 0, column: 0, name: 0 };
  const lines = map.mappings.split(';').map((line) => {
    let readColumn = 0;
    let writtenColumn = 0;
    const kept = [];
    for (const text of line.split(',')) {
      if (text === '') continue;
      const [column, source, sourceLine, sourceColumn, name] = decodeSegment(text);
      readColumn += column;
      if (source === undefined) continue;
      read.source += source;
      read.line += sourceLine;
      read.column += sourceColumn;
      if (name !== undefined) read.name += name;
      const newSource = sourceIndex[read.source];
      if (newSource === -1) continue;
      const segment = [
        readColumn - writtenColumn,
        newSource - written.source,
        read.line - written.line,
        read.column - written.column,
      ];
      writtenColumn = readColumn;
      written.source = newSource;
      written.line = read.line;
      written.column = read.column;
      if (name !== undefined) {
        const original = map.names[read.name];
        if (!nameIndex.has(original)) nameIndex.set(original, names.push(original) - 1);
        const newName = nameIndex.get(original);
        segment.push(newName - written.name);
        written.name = newName;
      }
      kept.push(encodeSegment(segment));
    }
    return kept.join(',');
  });
  // The bundle step writes no sourcesContent: the sources are in the repository.
  return { ...map, sources, names, mappings: lines.join(';') };
}

/** Every segment of a map with absolute positions (for checks): [line, column, source, sourceLine, sourceColumn, name?]. */
export function absoluteSegments(map) {
  const at = { source: 0, line: 0, column: 0, name: 0 };
  return map.mappings.split(';').flatMap((line, lineNumber) => {
    let column = 0;
    return line
      .split(',')
      .filter((text) => text !== '')
      .map((text) => {
        const [dColumn, dSource, dLine, dSourceColumn, dName] = decodeSegment(text);
        column += dColumn;
        at.source += dSource;
        at.line += dLine;
        at.column += dSourceColumn;
        if (dName !== undefined) at.name += dName;
        const segment = [lineNumber, column, map.sources[at.source], at.line, at.column];
        return dName === undefined ? segment : [...segment, map.names[at.name]];
      });
  });
}
