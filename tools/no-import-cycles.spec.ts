import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const root = path.resolve(__dirname, '..');

// Files left out of the check of type imports: none.
const notChecked: string[] = [];

// Cycles through type imports alone that are known and not yet untied (a type
// declared in the file that uses the other's class): they cost nothing at run
// time. An entry that no longer cycles fails the spec, to be dropped.
const knownTypeCycles: [string, string][] = [];

// The TypeScript files of the repository (generated clients aside).
const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '*.ts'], {
  cwd: root,
  encoding: 'utf8',
})
  .split('\n')
  .filter((file) => file.endsWith('.ts') && !file.endsWith('.d.ts') && !file.includes('/generated/'))
  .filter((file) => existsSync(path.join(root, file)));

const aliases: Record<string, string[]> = JSON.parse(
  readFileSync(path.join(root, 'tsconfig.base.json'), 'utf8'),
).compilerOptions.paths;

// The file an import names, if it is one of ours.
function resolve(from: string, specifier: string): string | undefined {
  let base: string;
  if (specifier.startsWith('.')) base = path.join(path.dirname(from), specifier.replace(/\.js$/, ''));
  else if (aliases[specifier]) base = aliases[specifier][0].replace(/\.ts$/, '');
  else return undefined;
  return [`${base}.ts`, path.join(base, 'index.ts')].find((file) => existsSync(path.join(root, file)));
}

// A file's imports of our files: `load` those that run when the module loads
// (static imports and re-exports that are not type-only), `all` with the
// type-only ones too. `import()` runs later, when called: neither.
function importsOf(file: string): { load: string[]; all: string[] } {
  const source = ts.createSourceFile(
    file,
    readFileSync(path.join(root, file), 'utf8'),
    ts.ScriptTarget.Latest,
  );
  const load: string[] = [];
  const all: string[] = [];
  const add = (specifier: ts.Expression, typeOnly: boolean) => {
    const target = resolve(file, (specifier as ts.StringLiteral).text);
    if (target === undefined) return;
    all.push(target);
    if (!typeOnly) load.push(target);
  };
  for (const statement of source.statements) {
    if (ts.isImportDeclaration(statement)) {
      const clause = statement.importClause;
      const typeOnly =
        clause?.isTypeOnly ||
        (clause !== undefined &&
          clause.name === undefined &&
          clause.namedBindings !== undefined &&
          ts.isNamedImports(clause.namedBindings) &&
          clause.namedBindings.elements.length > 0 &&
          clause.namedBindings.elements.every((element) => element.isTypeOnly));
      add(statement.moduleSpecifier, Boolean(typeOnly));
    } else if (ts.isExportDeclaration(statement) && statement.moduleSpecifier) {
      const typeOnly =
        statement.isTypeOnly ||
        (statement.exportClause !== undefined &&
          ts.isNamedExports(statement.exportClause) &&
          statement.exportClause.elements.length > 0 &&
          statement.exportClause.elements.every((element) => element.isTypeOnly));
      add(statement.moduleSpecifier, typeOnly);
    }
  }
  return { load, all };
}

// The strongly connected components of more than one file, and the files that
// import themselves (Tarjan's algorithm, iterative: chains of imports are long).
function cycles(graph: Map<string, string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const found: string[][] = [];
  let next = 0;
  for (const start of graph.keys()) {
    if (index.has(start)) continue;
    const work: { node: string; edge: number }[] = [{ node: start, edge: 0 }];
    index.set(start, next);
    low.set(start, next++);
    stack.push(start);
    onStack.add(start);
    while (work.length > 0) {
      const frame = work[work.length - 1];
      const edges = graph.get(frame.node) ?? [];
      if (frame.edge < edges.length) {
        const to = edges[frame.edge++];
        if (!index.has(to)) {
          index.set(to, next);
          low.set(to, next++);
          stack.push(to);
          onStack.add(to);
          work.push({ node: to, edge: 0 });
        } else if (onStack.has(to)) {
          low.set(frame.node, Math.min(low.get(frame.node)!, index.get(to)!));
        }
        continue;
      }
      work.pop();
      if (work.length > 0) {
        const parent = work[work.length - 1].node;
        low.set(parent, Math.min(low.get(parent)!, low.get(frame.node)!));
      }
      if (low.get(frame.node) === index.get(frame.node)) {
        const component: string[] = [];
        let member: string;
        do {
          member = stack.pop()!;
          onStack.delete(member);
          component.push(member);
        } while (member !== frame.node);
        if (component.length > 1 || edges.includes(frame.node)) found.push(component.sort());
      }
    }
  }
  return found;
}

// A cycle of imports makes one module of it run before the other is done: a
// class or constant it uses is undefined at load (NestJS then fails with an
// undefined provider), and which one depends on which file is loaded first.
// A cycle through type imports costs nothing at run time, but two files that
// each need the other are one concept split in two, or a layer upside down.
describe('imports', () => {
  const imports = new Map(files.map((file) => [file, importsOf(file)] as const));

  it('form no cycle among the imports that run at load', () => {
    const graph = new Map([...imports].map(([file, { load }]) => [file, load] as const));
    expect(graph.size).toBeGreaterThan(500);
    expect(cycles(graph)).toEqual([]);
  });

  it('form no cycle through type imports either, but the known ones', () => {
    const checked = (file: string) => !notChecked.some((prefix) => file.startsWith(prefix));
    const graph = new Map(
      [...imports]
        .filter(([file]) => checked(file))
        .map(([file, { all }]) => [file, all.filter(checked)] as const),
    );
    const found = cycles(graph).map((cycle) => cycle.join(' <-> '));
    const known = knownTypeCycles.map((cycle) => [...cycle].sort().join(' <-> '));
    expect(found.filter((cycle) => !known.includes(cycle))).toEqual([]);
    expect({ knownButGone: known.filter((cycle) => !found.includes(cycle)) }).toEqual({ knownButGone: [] });
  });
});
