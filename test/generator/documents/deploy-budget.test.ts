/**
 * The regenerate workflow's deploy budget (scripts/ci/deploy-budget.ts): deploys of the
 * last 24 hours count, older ones and unreadable lines do not, and a held-back deploy is
 * told when the window allows the next one.
 */
import { describe, expect, it } from 'vitest';
import { judgeBudget, recordDeploy } from '../../../scripts/ci/deploy-budget.js';

const NOW = Date.parse('2026-11-26T12:00:00.000Z');
const HOUR = 3_600_000;

function log(...hoursAgo: number[]): string {
  return hoursAgo.map((hours) => new Date(NOW - hours * HOUR).toISOString()).join('\n');
}

describe('the deploy budget', () => {
  it('when deploys are older than a day then they do not count', () => {
    expect(judgeBudget(log(25, 30, 1), 2, NOW)).toEqual({ allowed: true, count: 1, limit: 2 });
  });

  it('when the limit is reached then the deploy waits until the oldest counted one is a day old', () => {
    expect(judgeBudget(log(2, 20, 5), 3, NOW)).toEqual({
      allowed: false,
      count: 3,
      limit: 3,
      nextAt: new Date(NOW - 20 * HOUR + 24 * HOUR).toISOString(),
    });
  });

  it('when the log has lines that are not times then they are skipped', () => {
    expect(judgeBudget(`garbage\n\n${log(1)}\nnot-a-date`, 5, NOW).count).toBe(1);
  });

  it('when a deploy is recorded then it is appended and times older than a day are dropped', () => {
    const text = recordDeploy(log(30, 3), NOW);
    expect(text).toBe(`${new Date(NOW - 3 * HOUR).toISOString()}\n${new Date(NOW).toISOString()}\n`);
    expect(judgeBudget(text, 100, NOW).count).toBe(2);
  });
});
