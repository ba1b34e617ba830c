/**
 * Runs axe-core (Deque's accessibility engine) in a Playwright page and returns the rules
 * the page breaks, so the issuer's pages are judged by someone else's reading of WCAG. The
 * engine is evaluated through the DevTools protocol, which the pages' CSP (no scripts)
 * does not govern, so the pages are checked exactly as served.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export interface AxeViolation {
  id: string;
  impact: string | null;
  targets: string[];
}

interface AxeWindow {
  axe: {
    run(
      context: Document,
      options: object,
    ): Promise<{
      violations: { id: string; impact?: string | null; nodes: { target: unknown[] }[] }[];
    }>;
  };
}

export async function axeViolations(page: Page): Promise<AxeViolation[]> {
  await page.evaluate(AXE_SOURCE);
  return page.evaluate(async () => {
    const { axe } = window as unknown as AxeWindow;
    const result = await axe.run(document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21aa'] },
    });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact ?? null,
      targets: v.nodes.map((n) => String(n.target[0])),
    }));
  });
}
