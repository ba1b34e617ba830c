/**
 * What a probe returns and reads, shared by `probes.ts` and `page-probes.ts`: a verdict
 * (pass, fail or not applicable, with why) and the context it runs in.
 */
import type { ProbeFetch } from './probe-http.js';

export type ProbeStatus = 'pass' | 'fail' | 'not applicable';

export interface ProbeResult {
  id: string;
  category: string;
  status: ProbeStatus;
  message: string;
  /** Set on a homepage probe in model (b): the verdict judges the store's page, not the bundle. */
  judges?: 'store';
}

export interface ProbeContext {
  fetch: ProbeFetch;
  /** The HTML page the homepage probes read: `/`, or the bundle's `/api/` beside the store's `/`. */
  page: string;
}

export type Verdict = [status: ProbeStatus, message: string];
export type Probe = { id: string; category: string; run: (context: ProbeContext) => Promise<Verdict> };

export const pass = (message: string): Verdict => ['pass', message];
export const fail = (message: string): Verdict => ['fail', message];
export const notApplicable = (message: string): Verdict => ['not applicable', message];
