/**
 * The regenerate workflow's deploy budget: Netlify accepts about 100 production deploys a
 * day, and webhooks can ask for a rebuild every minute, so the workflow counts its own
 * deploys over the last 24 hours and holds a deploy back once the budget is spent (the
 * next run deploys the change once the window allows; the cron keeps running). The count
 * lives in a small file of ISO times, one a line, that the workflow restores and saves
 * with actions/cache; this script is the only reader and writer of it.
 *
 *   node lib/scripts/ci/deploy-budget.js check  <log> <limit>   → allowed=… count=… on stdout
 *   node lib/scripts/ci/deploy-budget.js record <log>           → appends now, drops times older than a day
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';

const DAY_MS = 24 * 60 * 60 * 1000;
/** Never more lines than this are kept, whatever the file held. */
const MAX_LINES = 1_000;

/** The deploy times in the log within the last day, oldest first; an unreadable line is skipped. */
export function readRecentDeploys(text: string, now: number): number[] {
  return text
    .split('\n')
    .slice(-MAX_LINES)
    .map((line) => Date.parse(line.trim()))
    .filter((time) => !Number.isNaN(time) && time > now - DAY_MS && time <= now + 60_000)
    .sort((a, b) => a - b);
}

export interface BudgetVerdict {
  allowed: boolean;
  count: number;
  limit: number;
  /** When a held-back deploy may go: the oldest counted deploy plus a day. */
  nextAt?: string;
}

export function judgeBudget(text: string, limit: number, now: number): BudgetVerdict {
  const recent = readRecentDeploys(text, now);
  const allowed = recent.length < limit;
  const oldest = recent[0];
  return {
    allowed,
    count: recent.length,
    limit,
    ...(!allowed && oldest !== undefined ? { nextAt: new Date(oldest + DAY_MS).toISOString() } : {}),
  };
}

export function recordDeploy(text: string, now: number): string {
  const kept = readRecentDeploys(text, now).map((time) => new Date(time).toISOString());
  return `${[...kept, new Date(now).toISOString()].join('\n')}\n`;
}

function readLog(path: string): string {
  return existsSync(path) ? readFileSync(path, 'utf8') : '';
}

function main(argv: readonly string[]): number {
  const [command, log, limitText] = argv;
  const now = Date.now();
  if (command === 'check' && log !== undefined && limitText !== undefined && /^\d+$/.test(limitText)) {
    const verdict = judgeBudget(readLog(log), Number(limitText), now);
    process.stdout.write(`allowed=${verdict.allowed}\ncount=${verdict.count}\nlimit=${verdict.limit}\n`);
    if (verdict.nextAt !== undefined) process.stdout.write(`next_at=${verdict.nextAt}\n`);
    return 0;
  }
  if (command === 'record' && log !== undefined) {
    writeFileSync(log, recordDeploy(readLog(log), now));
    return 0;
  }
  process.stderr.write('usage: deploy-budget check <log> <limit> | deploy-budget record <log>\n');
  return 2;
}

if (process.argv[1]?.endsWith('deploy-budget.js')) process.exitCode = main(process.argv.slice(2));
