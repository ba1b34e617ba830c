/**
 * `agent-catalog check [dir-or-url]`: validates a bundle on disk or a live site and
 * prints the report (CONTRACT.md). Exit status: 0 when every document is valid, 1 on
 * any problem or when the site cannot be read, 2 for a bad argument (a directory that
 * does not exist, a URL that is not http(s)).
 */
import { checkTarget } from '../check/check-target.js';
import { formatJsonReport, formatTextReport } from '../check/report.js';
import { describeErrorChain, exitStatusFor, isCatalogError } from '../errors.js';
import type { CommandIo } from './io.js';

export interface CheckCommandOptions {
  target: string;
  json: boolean;
  /** The site_url a site target stands in for. */
  as?: string;
}

/** Returns the exit status (0 valid, 1 any failure, 2 bad argument). */
export async function runCheck(options: CheckCommandOptions, io: CommandIo): Promise<number> {
  try {
    const result = await checkTarget(options.target, {
      cwd: io.cwd,
      ...(options.as !== undefined ? { as: options.as } : {}),
    });
    io.stdout.write(options.json ? formatJsonReport(result) : formatTextReport(result));
    return result.problems.length === 0 ? 0 : 1;
  } catch (error) {
    io.stderr.write(`agent-catalog check: ${describeErrorChain(error).join(': ')}\n`);
    return isCatalogError(error) ? exitStatusFor(error) : 1;
  }
}
