import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';

export interface AccessibilityViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: string[];
}

let axeSource: string | undefined;

// What axe-core finds wrong in a page as it stands, each violation with the
// elements it names. axe-core is loaded into the page the first time (a
// script of its own, from node_modules: nothing from another site).
export async function accessibilityViolations(page: Page): Promise<AccessibilityViolation[]> {
  axeSource ??= readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
  if (!(await page.evaluate('typeof axe !== "undefined"'))) await page.evaluate(axeSource);
  return page.evaluate<AccessibilityViolation[]>(
    "axe.run(document, { resultTypes: ['violations'] }).then((result) => result.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((node) => node.target.join(' ')) })))",
  );
}

/** Each violation as one line naming the screen, for a spec to expect none of. */
export async function accessibilityFindings(page: Page, screen: string): Promise<string[]> {
  return (await accessibilityViolations(page)).map(
    (v) => `${screen}: ${v.id} (${v.impact}: ${v.help}) at ${v.nodes.join(', ')}`,
  );
}
