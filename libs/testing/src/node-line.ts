import { readFileSync } from 'node:fs';
import path from 'node:path';
import { repositoryRoot } from './repository-root';

// The Node.js the product targets, as package.json's `engines` names it
// (`^<major>.<minor>.<patch>`: the version tools/node-runtime pins, or any
// later release of the same line). docs/node.md says why this line.
export interface NodeLine {
  major: number;
  /** The oldest release of the line that fits, e.g. '26.12.1'. */
  minimum: string;
}

export function targetNodeLine(): NodeLine {
  const engines = (
    JSON.parse(readFileSync(path.join(repositoryRoot(), 'package.json'), 'utf8')) as {
      engines: { node: string };
    }
  ).engines.node;
  const match = /^\^(\d+)\.(\d+)\.(\d+)$/.exec(engines);
  if (!match)
    throw new Error(`package.json's engines.node should read ^<major>.<minor>.<patch>, not '${engines}'`);
  return { major: Number(match[1]), minimum: `${match[1]}.${match[2]}.${match[3]}` };
}

// Whether a version ('v26.13.0' or '26.13.0') is of the line and no older than its minimum.
export function fitsNodeLine(version: string, line: NodeLine = targetNodeLine()): boolean {
  const parts = version.replace(/^v/, '').split('.').map(Number);
  const minimum = line.minimum.split('.').map(Number);
  if (parts.length !== 3 || parts.some((part) => !Number.isInteger(part))) return false;
  if (parts[0] !== line.major) return false;
  for (let i = 1; i < 3; i++) if (parts[i] !== minimum[i]) return parts[i] > minimum[i];
  return true;
}
