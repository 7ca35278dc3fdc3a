import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { z } from 'zod';
import * as config from '@formline/config';
import { type AppName, appConfigSchemas, appNames } from '@formline/app-config';

const root = path.resolve(__dirname, '..');
const read = (file: string) => readFileSync(path.join(root, file), 'utf8');
const groupsDir = 'libs/config/src/groups';

// Every setting has one home, by who reads it (docs/decisions/code-structure.md,
// "Where a setting goes"): the app's own file in libs/app-config when one app
// reads it; a group of libs/config when two or more apps read it or a library
// takes it as its typed parameter. Held here so the rule cannot erode: a group
// left with one reader, a variable declared twice, a setting declared anywhere
// else.

const tracked = (...paths: string[]) =>
  execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', ...paths], {
    cwd: root,
    encoding: 'utf8',
  })
    .split('\n')
    .filter((file) => file.endsWith('.ts') && !/\.(spec|int-spec|e2e-spec)\.ts$/.test(file));

const exportedNames = (text: string) =>
  [...text.matchAll(/^export (?:const|type|function|interface) (\w+)/gm)].map(([, name]) => name);

const groupSources = tracked(groupsDir)
  .filter((file) => file.endsWith('.vars.ts'))
  .map((file) => ({ file, text: read(file) }));

// Each group of libs/config (an exported `...Vars` object of a group file) and
// its settings, read from the module as the apps spread them.
const groups = groupSources.flatMap(({ file, text }) =>
  [...text.matchAll(/^export const (\w+Vars) =/gm)].map(([, name]) => ({
    name,
    file,
    settings: Object.keys((config as unknown as Record<string, z.ZodRawShape>)[name]),
  })),
);

// The groups each exported type of a group file is made of: the `typeof` names
// in its declaration, a function that makes groups standing for the groups it
// makes (`typeof storageVars<P>`: imageStorageVars, fileStorageVars).
const madeBy = new Map<string, string[]>();
for (const { text } of groupSources)
  for (const [, group, maker] of text.matchAll(/^export const (\w+Vars) = (\w+)\(/gm))
    madeBy.set(maker, [...(madeBy.get(maker) ?? []), group]);
const groupsOfType = new Map<string, string[]>();
for (const { text } of groupSources)
  for (const [, type, body] of text.matchAll(/^export type (\w+)(?:<[^=]*>)? =([^;]*);/gm))
    groupsOfType.set(
      type,
      [...body.matchAll(/typeof (\w+)/g)].flatMap(([, name]) => madeBy.get(name) ?? [name]),
    );

// The libraries that take a group as their parameter: those whose code imports
// from @formline/config the group, or a type made of it.
const takers = new Map<string, Set<string>>();
for (const file of tracked('libs')) {
  const library = file.split('/')[1];
  if (library === 'config' || library === 'app-config') continue;
  for (const [, names] of read(file).matchAll(/import (?:type )?\{([^}]*)\} from '@formline\/config'/g))
    for (const name of names.split(',').map((entry) => entry.replace(/^\s*type\s+/, '').trim()))
      for (const group of groupsOfType.get(name) ?? (name.endsWith('Vars') ? [name] : []))
        takers.set(group, (takers.get(group) ?? new Set()).add(`libs/${library}`));
}

const settingsOf = (app: AppName) => Object.keys(appConfigSchemas[app].shape);
const readersOf = (setting: string) => appNames.filter((app) => settingsOf(app).includes(setting));

describe('where each setting lives', () => {
  it('finds the groups, their settings and the libraries that take them', () => {
    expect(groups.find((group) => group.name === 'natsVars')?.settings).toContain('NATS_URL');
    expect([...(takers.get('rateLimitVars') ?? [])]).toEqual(['libs/http-edge']);
    expect([...(takers.get('fileStorageVars') ?? [])]).toEqual(['libs/object-storage']);
    expect([...(takers.get('retentionVars') ?? [])]).toEqual(['libs/db']);
  });

  it('keeps a setting in a group of libs/config only while two apps read it or a library takes it', () => {
    const lonely = groups.flatMap(({ name, file, settings }) =>
      takers.has(name)
        ? []
        : settings
            .filter((setting) => readersOf(setting).length < 2)
            .map(
              (setting) =>
                `${setting} (${file}) is read by ${readersOf(setting).join(', ') || 'no app'} and taken by no library: move it to that app's file in libs/app-config`,
            ),
    );
    expect(lonely).toEqual([]);
  });

  it('declares a variable that two apps read once, in a group of libs/config', () => {
    const grouped = new Set(groups.flatMap(({ settings }) => settings));
    const shared = [...new Set(appNames.flatMap(settingsOf))].filter(
      (setting) => readersOf(setting).length > 1 && !grouped.has(setting),
    );
    expect(shared.map((setting) => `${setting}: ${readersOf(setting).join(', ')} declare it each`)).toEqual(
      [],
    );
  });

  it("declares every other setting in the app's own file of libs/app-config", () => {
    const grouped = new Set(groups.flatMap(({ settings }) => settings));
    const astray = appNames.flatMap((app) => {
      const own = read(`libs/app-config/src/${app}.config.ts`);
      return settingsOf(app)
        .filter((setting) => !grouped.has(setting) && !new RegExp(`^\\s+${setting}:`, 'm').test(own))
        .map((setting) => `${app}: ${setting} is declared neither in a group nor in ${app}.config.ts`);
    });
    expect(astray).toEqual([]);
  });

  it('keeps groups out of libs/app-config and settings schemas out of the other libraries', () => {
    const appConfigGroups = tracked('libs/app-config')
      .filter((file) => exportedNames(read(file)).some((name) => name.endsWith('Vars')))
      .map((file) => `${file} exports a group: groups live in ${groupsDir}`);
    const librarySchemas = tracked('libs')
      .filter((file) => !file.startsWith('libs/config/') && !file.startsWith('libs/app-config/'))
      .filter((file) => /(\b[A-Z][A-Z0-9]*_[A-Z0-9_]+|_[A-Z][A-Z0-9_]*`\]): z[.\s]/.test(read(file)))
      .map((file) => `${file} declares settings of its own: make them a group in ${groupsDir}`);
    expect([...appConfigGroups, ...librarySchemas]).toEqual([]);
  });
});
