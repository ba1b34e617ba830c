/**
 * The report `agent-catalog check` prints: for people, one line per problem grouped
 * under the document it is about, in path order; for machines (`--json`), one JSON
 * object with the same facts and a `valid` flag.
 */
import type { Problem } from '../validate/index.js';
import type { CheckResult } from './check-target.js';
import { LEVEL_NAMES } from './readiness-level.js';

function formatProbes(result: CheckResult): string[] {
  if (result.probes.length === 0) return [];
  const lines = ['', `agent readiness: level L${result.level} (${LEVEL_NAMES[result.level] ?? ''})`];
  for (const probe of result.probes) lines.push(`  ${probe.status.padEnd(14)} ${probe.id}: ${probe.message}`);
  return lines;
}

function formatHosts(result: CheckResult): string[] {
  if (result.hosts.length === 0) return [];
  const lines = ['', 'hosts (deploy limits):'];
  for (const fit of result.hosts) {
    lines.push(`  ${fit.host.padEnd(22)} ${fit.fits ? 'fits' : 'does not fit'}`);
    for (const breach of fit.breaches) lines.push(`    ${breach.message}`);
  }
  return lines;
}

function groupByPath(problems: readonly Problem[]): Map<string, Problem[]> {
  const groups = new Map<string, Problem[]>();
  const sorted = [...problems].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  for (const problem of sorted) {
    const group = groups.get(problem.path) ?? [];
    group.push(problem);
    groups.set(problem.path, group);
  }
  return groups;
}

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? '' : 's'}`;
}

function formatWarnings(result: CheckResult): string[] {
  return result.warnings.map((warning) => `warning: ${warning}`);
}

export function formatTextReport(result: CheckResult): string {
  const source = `${result.kind === 'site' ? 'site' : 'directory'} ${result.target}`;
  if (result.problems.length === 0) {
    const head = `agent-catalog check: ${source}: ${plural(result.documents, 'document')}, all valid`;
    return `${[head, ...formatWarnings(result), ...formatHosts(result), ...formatProbes(result)].join('\n')}\n`;
  }
  const groups = groupByPath(result.problems);
  const lines = [
    `agent-catalog check: ${source}: ${plural(result.problems.length, 'problem')} in ${plural(groups.size, 'document')}`,
    ...formatWarnings(result),
  ];
  for (const [path, problems] of groups) {
    lines.push('', path);
    for (const problem of problems) lines.push(`  ${problem.rule}: ${problem.message}`);
  }
  lines.push(...formatHosts(result), ...formatProbes(result));
  return `${lines.join('\n')}\n`;
}

export function formatJsonReport(result: CheckResult): string {
  return `${JSON.stringify({
    target: result.target,
    kind: result.kind,
    valid: result.problems.length === 0,
    documents: result.documents,
    problems: result.problems,
    level: result.level,
    levelName: LEVEL_NAMES[result.level],
    probes: result.probes,
    warnings: result.warnings,
    ...(result.freshness
      ? {
          freshness: {
            generated: result.freshness.generated,
            age_seconds: result.freshness.ageSeconds,
            limit_seconds: result.freshness.limitSeconds,
            stale: result.freshness.stale,
          },
        }
      : {}),
    hosts: result.hosts.map((fit) => ({
      host: fit.host,
      fits: fit.fits,
      breaches: fit.breaches.map((breach) => breach.message),
    })),
  })}\n`;
}
