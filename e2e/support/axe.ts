import fs from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const AXE_SCRIPT = createRequire(import.meta.url).resolve('axe-core/axe.min.js');
let axeSource: Promise<string> | undefined;

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: unknown[] }[];
}

/** Runs axe-core in the page; returns its violations of every impact, one line each. */
export async function axeViolations(page: Page): Promise<string[]> {
  return (await violationsIn(page)).map(describe);
}

/** Runs axe-core in the page; returns the serious and critical violations, one line each. */
export async function seriousViolations(page: Page): Promise<string[]> {
  return (await violationsIn(page))
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(describe);
}

const describe = (violation: AxeViolation) =>
  `${violation.impact} ${violation.id} (${violation.help}): ${violation.nodes
    .slice(0, 3)
    .map((node) => JSON.stringify(node.target))
    .join(', ')}`;

async function violationsIn(page: Page): Promise<AxeViolation[]> {
  if (!(await page.evaluate(() => 'axe' in window))) {
    // The app's Content-Security-Policy refuses inline <script> elements (addScriptTag); code
    // evaluated through the DevTools protocol is not subject to it.
    axeSource ??= fs.readFile(AXE_SCRIPT, 'utf8');
    await page.evaluate(`${await axeSource}\n;true`);
  }
  const violations = await page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: { run(context: Document, options: object): Promise<{ violations: AxeViolation[] }> };
      }
    ).axe;
    const result = await axe.run(document, { resultTypes: ['violations'] });
    return result.violations;
  });
  return violations;
}
