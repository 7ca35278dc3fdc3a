import { execFileSync } from 'node:child_process';
import path from 'node:path';

// The reduced source map of an app bundle (tools/build/source-map-of-own-code.mjs,
// an ES module the build imports), run as the build runs it.
function evaluate(expression: string): unknown {
  const module = JSON.stringify(path.join(__dirname, 'source-map-of-own-code.mjs'));
  const output = execFileSync(process.execPath, [
    '--input-type=module',
    '-e',
    `import * as maps from ${module}; console.log(JSON.stringify(${expression}));`,
  ]);
  return JSON.parse(output.toString());
}

describe('an app bundle source map of its own code', () => {
  it('reads and writes Base64 VLQ as the Source Map format spells it', () => {
    expect(evaluate(`[maps.decodeSegment('AAAA'), maps.decodeSegment('CADgB')]`)).toEqual([
      [0, 0, 0, 0],
      [1, 0, -1, 16],
    ]);
    const values = [[0], [1, -1, 15, 16, -16], [123456, -98765, 31, 32, 1023]];
    expect(
      evaluate(`${JSON.stringify(values)}.map((v) => maps.decodeSegment(maps.encodeSegment(v)))`),
    ).toEqual(values);
  });

  it('keeps every segment of the own sources where it was, and drops those of node_modules', () => {
    // Two generated lines, each mixing a package's code and ours, with names.
    const lines = [
      [
        [0, 0, 0, 0],
        [5, 1, 3, 2, 1],
        [9, -1, -3, -2, -1],
        [4, 2, 10, 4],
      ],
      [
        [2, -1, 1, 0],
        [3, -1, 0, 1],
        [1, 1, -5, 3, 1],
      ],
    ];
    const map = `{
      version: 3,
      sources: ['../../node_modules/pkg/index.js', '../../libs/a/src/a.ts', '../../apps/x/src/main.ts'],
      names: ['pkgName', 'ownName'],
      mappings: ${JSON.stringify(lines)}.map((line) => line.map(maps.encodeSegment).join(',')).join(';'),
    }`;
    const result = evaluate(`(() => {
      const map = ${map};
      const reduced = maps.sourceMapOfOwnCode(map);
      return { reduced, before: maps.absoluteSegments(map), after: maps.absoluteSegments(reduced) };
    })()`) as { reduced: { sources: string[]; names: string[] }; before: unknown[][]; after: unknown[][] };
    expect(result.reduced.sources).toEqual(['../../libs/a/src/a.ts', '../../apps/x/src/main.ts']);
    expect(result.reduced.names).toEqual(['ownName']);
    expect(result.after).toEqual(
      result.before.filter((segment) => !String(segment[2]).includes('node_modules')),
    );
    expect(result.after).toHaveLength(4);
  });
});
