// Bundles a browser script from the project's TypeScript with swc alone (no
// bundler dependency): each module is compiled to CommonJS, wrapped in a
// function, and linked by a 10-line loader; relative imports and the
// `@formline/*` aliases are followed, anything else is refused, so a Node or
// npm import can never slip into the page by accident. Type-only imports
// vanish in compilation.
import { readFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { transformFile } from '@swc/core';

const swcOptions = (file, minify) => ({
  filename: file,
  module: { type: 'commonjs', strict: true },
  minify,
  jsc: {
    target: 'es2020',
    parser: { syntax: 'typescript' },
    ...(minify ? { minify: { compress: true, mangle: true } } : {}),
  },
});

export async function bundleBrowserScript({ root, entry, minify = true }) {
  const { compilerOptions } = JSON.parse(readFileSync(path.join(root, 'tsconfig.base.json'), 'utf8'));
  const resolve = (from, specifier) => {
    const alias = compilerOptions.paths[specifier];
    const base = alias
      ? path.join(root, alias[0])
      : specifier.startsWith('.')
        ? path.resolve(path.dirname(from), specifier)
        : undefined;
    if (!base) throw new Error(`${path.relative(root, from)}: ${specifier} cannot go into a browser bundle`);
    const file = [base, `${base}.ts`, path.join(base, 'index.ts')].find(
      (f) => f.endsWith('.ts') && existsSync(f),
    );
    if (!file) throw new Error(`${path.relative(root, from)}: cannot resolve ${specifier}`);
    return file;
  };
  const modules = new Map(); // file -> {id, code, links}
  const visit = async (file) => {
    if (modules.has(file)) return modules.get(file).id;
    const module = { id: modules.size, code: '', links: {} };
    modules.set(file, module);
    const { code } = await transformFile(file, swcOptions(file, minify));
    module.code = code;
    for (const [, specifier] of code.matchAll(/require\("([^"]+)"\)/g)) {
      module.links[specifier] = await visit(resolve(file, specifier));
    }
    return module.id;
  };
  await visit(path.resolve(root, entry));
  const table = [...modules.values()]
    .map((m) => `[function(module,exports,require){${m.code}\n},${JSON.stringify(m.links)}]`)
    .join(',\n');
  return `(function(){var d=[${table}],c={};function r(i){if(c[i])return c[i].exports;var m=c[i]={exports:{}};d[i][0].call(m.exports,m,m.exports,function(s){return r(d[i][1][s])});return m.exports}r(0)})();\n`;
}
