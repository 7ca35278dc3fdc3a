// The workspace's module boundaries, drawn as Nx's enforce-module-boundaries
// draws them and configured with the same option names. Nx's own rule is not
// used: @nx/eslint-plugin exists only for an older Nx than ours, and it skips
// itself with a warning (not an error) whenever no project graph is cached,
// so a fresh clone would lint green while breaking every boundary
// (docs/decisions/code-structure.md, "Module boundaries").
//
// Every folder with a project.json is a project with its tags. An import that
// lands in another project must be allowed by the importing project's tags,
// and reaches a library only through its `@formline/<lib>` alias. A
// constraint may also ban packages (`bannedExternalImports`, as Nx names it:
// patterns with `*`), such as Node's modules in code that runs in a browser.
// One option is ours: a constraint with `ignoreTypeImports` lets type-only
// imports through, as they vanish in compilation and bring none of the
// target's code (a browser script may use a Node library's types).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repositoryRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const notProjects = new Set(['node_modules', 'dist', 'coverage', 'generated']);

// Projects sit at most two folders down (apps/gateway, test/e2e).
export function findProjects(workspaceRoot = repositoryRoot) {
  const projects = [];
  const visit = (dir, depth) => {
    const file = path.join(dir, 'project.json');
    if (dir !== workspaceRoot && existsSync(file)) {
      const { name, tags = [] } = JSON.parse(readFileSync(file, 'utf8'));
      projects.push({ name, root: dir, tags });
    }
    if (depth === 0) return;
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.isDirectory() && !entry.name.startsWith('.') && !notProjects.has(entry.name)) {
        visit(path.join(dir, entry.name), depth - 1);
      }
    }
  };
  visit(workspaceRoot, 2);
  // Deepest first, so a file belongs to the innermost project around it.
  return projects.sort((a, b) => b.root.length - a.root.length);
}

// The projects and aliases of a workspace (this repository, or a spec's own).
const workspaces = new Map();
function loadWorkspace(workspaceRoot) {
  if (workspaces.has(workspaceRoot)) return workspaces.get(workspaceRoot);
  const projects = findProjects(workspaceRoot);
  const projectOf = (file) => projects.find((project) => file.startsWith(project.root + path.sep));
  const { paths = {} } = JSON.parse(
    readFileSync(path.join(workspaceRoot, 'tsconfig.base.json'), 'utf8'),
  ).compilerOptions;
  const aliases = new Map(
    Object.entries(paths).map(([alias, [target]]) => [alias, projectOf(path.join(workspaceRoot, target))]),
  );
  const workspace = { projectOf, aliases };
  workspaces.set(workspaceRoot, workspace);
  return workspace;
}

/** @type {import('eslint').Rule.RuleModule} */
const rule = {
  meta: {
    type: 'problem',
    docs: { description: 'Imports between projects follow the tags of project.json (apps use libs only).' },
    schema: [
      {
        type: 'object',
        properties: {
          libraryTag: { type: 'string' },
          workspaceRoot: { type: 'string' },
          depConstraints: {
            type: 'array',
            items: {
              type: 'object',
              properties: {
                sourceTag: { type: 'string' },
                onlyDependOnLibsWithTags: { type: 'array', items: { type: 'string' } },
                bannedExternalImports: { type: 'array', items: { type: 'string' } },
                ignoreTypeImports: { type: 'boolean' },
              },
              required: ['sourceTag'],
              additionalProperties: false,
            },
          },
        },
        required: ['depConstraints'],
        additionalProperties: false,
      },
    ],
    messages: {
      notAllowed:
        '{{source}} ({{sourceTag}}) may import only projects tagged {{allowed}}; {{target}} is tagged {{targetTags}}.',
      relativeLibrary: 'Import {{target}} through its alias {{alias}}, not by a path into its folder.',
      bannedExternal: '{{source}} ({{sourceTag}}) may not import {{specifier}}.',
    },
  },
  create(context) {
    const { depConstraints, libraryTag = 'type:lib', workspaceRoot = repositoryRoot } = context.options[0];
    const { projectOf, aliases } = loadWorkspace(workspaceRoot);
    const relativeToRoot = (project) => path.relative(workspaceRoot, project.root);
    const filename = context.physicalFilename ?? context.filename;
    const source = projectOf(path.resolve(filename));
    if (!source) return {};
    const constraints = depConstraints.filter((constraint) => source.tags.includes(constraint.sourceTag));

    const applying = (typeOnly) =>
      constraints.filter((constraint) => !(typeOnly && constraint.ignoreTypeImports));
    const check = (node, typeOnly = false) => {
      if (node?.type !== 'Literal' || typeof node.value !== 'string') return;
      const specifier = node.value;
      let target;
      let throughAlias = false;
      if (specifier.startsWith('.')) {
        target = projectOf(path.resolve(path.dirname(filename), specifier));
      } else {
        const alias = [...aliases.keys()].find((key) => specifier === key || specifier.startsWith(`${key}/`));
        if (alias === undefined) return checkExternal(node, specifier, typeOnly);
        target = aliases.get(alias);
        throughAlias = true;
      }
      if (!target || target === source) return;
      if (!throughAlias && target.tags.includes(libraryTag)) {
        const alias = [...aliases].find(([, project]) => project === target)?.[0] ?? '@formline/<lib>';
        context.report({
          node,
          messageId: 'relativeLibrary',
          data: { target: relativeToRoot(target), alias },
        });
      }
      for (const constraint of applying(typeOnly)) {
        if (!constraint.onlyDependOnLibsWithTags) continue;
        if (constraint.onlyDependOnLibsWithTags.some((tag) => target.tags.includes(tag))) continue;
        context.report({
          node,
          messageId: 'notAllowed',
          data: {
            source: relativeToRoot(source),
            sourceTag: constraint.sourceTag,
            allowed: constraint.onlyDependOnLibsWithTags.join(' or '),
            target: relativeToRoot(target),
            targetTags: target.tags.join(', ') || 'nothing',
          },
        });
      }
    };

    const isCall = (callee, object, property) =>
      callee.type === 'MemberExpression' &&
      callee.object.type === 'Identifier' &&
      callee.object.name === object &&
      callee.property.type === 'Identifier' &&
      callee.property.name === property;

    const checkExternal = (node, specifier, typeOnly) => {
      for (const constraint of applying(typeOnly)) {
        const banned = (constraint.bannedExternalImports ?? []).some((pattern) =>
          matches(pattern, specifier),
        );
        if (!banned) continue;
        context.report({
          node,
          messageId: 'bannedExternal',
          data: { source: relativeToRoot(source), sourceTag: constraint.sourceTag, specifier },
        });
      }
    };

    // `import type {...}`, or every name imported as `type X`.
    const isTypeOnly = (node) =>
      node.importKind === 'type' ||
      node.exportKind === 'type' ||
      (node.specifiers?.length > 0 &&
        node.specifiers.every(
          (specifier) => specifier.importKind === 'type' || specifier.exportKind === 'type',
        ));

    return {
      ImportDeclaration: (node) => check(node.source, isTypeOnly(node)),
      ExportAllDeclaration: (node) => check(node.source, isTypeOnly(node)),
      ExportNamedDeclaration: (node) => check(node.source, isTypeOnly(node)),
      ImportExpression: (node) => check(node.source),
      TSImportEqualsDeclaration: (node) => check(node.moduleReference.expression),
      CallExpression: (node) => {
        const { callee } = node;
        if (
          (callee.type === 'Identifier' && callee.name === 'require') ||
          isCall(callee, 'jest', 'mock') ||
          isCall(callee, 'jest', 'requireActual')
        ) {
          check(node.arguments[0]);
        }
      },
    };
  },
};

// A package name against a pattern whose `*` stands for any characters
// (`node:*`, `@nestjs/*`); a pattern without one also matches the package's subpaths.
function matches(pattern, specifier) {
  if (!pattern.includes('*')) return specifier === pattern || specifier.startsWith(`${pattern}/`);
  const [first, ...rest] = pattern.split('*');
  if (!specifier.startsWith(first)) return false;
  let at = first.length;
  for (const [i, part] of rest.entries()) {
    if (i === rest.length - 1) return specifier.length - part.length >= at && specifier.endsWith(part);
    const found = specifier.indexOf(part, at);
    if (found < 0) return false;
    at = found + part.length;
  }
  return true;
}

export const moduleBoundaries = { rules: { 'enforce-module-boundaries': rule } };
