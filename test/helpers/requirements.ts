/**
 * What a test suite needs from the machine (PostgreSQL, Chromium, a separately installed
 * CDN engine…), and how it says so when it must skip. A suite declares its needs with
 * `describe(name, requires(POSTGRES), () => …)`: it then skips when one is missing and
 * carries the missing one's `skipReason` (what to set or install) in its task meta, where
 * the skip reporter (`test/reporters/skip-summary.ts`) collects it for the one line per
 * group that ends `npm test`. A new kind of optional suite needs only a new Requirement.
 */
import type { TestOptions } from 'vitest';

declare module 'vitest' {
  interface TaskMeta {
    /** Why the suite is skipped, saying what to set; read by the skip reporter. */
    skipReason?: string;
  }
}

export interface Requirement {
  /** True when the machine has it and the suite can run. */
  met: boolean;
  /** One line saying what is missing and what to set or install, e.g. `set TEST_DATABASE_URL …`. */
  skipReason: string;
}

/** Suite options that skip when any requirement is unmet, naming the first unmet one. */
export function requires(...requirements: readonly Requirement[]): TestOptions {
  const missing = requirements.find((requirement) => !requirement.met);
  if (missing === undefined) return {};
  return { skip: true, meta: { skipReason: missing.skipReason } };
}
