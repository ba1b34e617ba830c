/**
 * The end of `npm test` says what it skipped and why: one line per group of skipped tests,
 * with the reason the group carries (what to set or install, from `requires(…)` in
 * `test/helpers/requirements.ts`, or a `ctx.skip(note)`). Skipped tests that carry no
 * reason are listed by file on a line of their own, so no skip goes unexplained. Runs in
 * the vitest main process after the default reporter's summary.
 */
import { relative } from 'node:path';
import type { Reporter, TestModule, Vitest } from 'vitest/node';

export interface SkipGroup {
  reason: string;
  count: number;
}

/** Groups the skipped tests of a run by their stated reason; `undefined` reason = none stated. */
export function groupSkips(modules: ReadonlyArray<TestModule>, root: string): SkipGroup[] {
  const groups = new Map<string, number>();
  const unexplained = new Map<string, number>();
  for (const module of modules) {
    for (const test of module.children.allTests('skipped')) {
      const result = test.result();
      const reason = test.meta().skipReason ?? (result.state === 'skipped' ? result.note : undefined);
      if (reason) groups.set(reason, (groups.get(reason) ?? 0) + 1);
      else {
        const file = relative(root, module.moduleId);
        unexplained.set(file, (unexplained.get(file) ?? 0) + 1);
      }
    }
  }
  const lines = [...groups].map(([reason, count]) => ({ reason, count }));
  if (unexplained.size > 0) {
    const files = [...unexplained.keys()].sort().join(', ');
    const count = [...unexplained.values()].reduce((sum, n) => sum + n, 0);
    lines.push({ reason: `no reason stated (give the suite requires(…)): ${files}`, count });
  }
  return lines;
}

export function formatSkips(groups: readonly SkipGroup[]): string {
  return groups
    .map(({ reason, count }) => `skipped ${count} test${count === 1 ? '' : 's'}: ${reason}\n`)
    .join('');
}

export default class SkipSummaryReporter implements Reporter {
  private root = process.cwd();
  private filtered = false;

  onInit(vitest: Vitest): void {
    this.root = vitest.config.root;
    // A name filter (-t) skips everything else on purpose; that needs no explaining.
    this.filtered = vitest.config.testNamePattern !== undefined;
  }

  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    const groups = groupSkips(modules, this.root).filter(
      (group) => !this.filtered || !group.reason.startsWith('no reason stated'),
    );
    if (groups.length > 0) process.stdout.write(`\n${formatSkips(groups)}`);
  }
}
