/**
 * The CPU time a process has used, read from /proc/<pid>/stat: utime and stime (fields 14
 * and 15, the process's own threads) plus cutime and cstime (16 and 17, the children it
 * has waited for), in clock ticks. On a shared machine that figure is steadier than
 * requests per second: another workload slows a server down, but it barely changes how
 * much CPU the server spends on each request. Linux only; elsewhere the figure is null.
 */
import { execFileSync } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';

let ticksPerSecond: number | undefined;

/** USER_HZ, the unit of the /proc times (100 on every mainstream Linux; asked once). */
function clockTicksPerSecond(): number {
  if (ticksPerSecond === undefined) {
    try {
      const value = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());
      ticksPerSecond = Number.isInteger(value) && value > 0 ? value : 100;
    } catch {
      ticksPerSecond = 100;
    }
  }
  return ticksPerSecond;
}

/** Parses the text of /proc/<pid>/stat into CPU milliseconds, or null when it is not that format. */
export function parseProcStatCpuMs(stat: string, hz = clockTicksPerSecond()): number | null {
  // The command name (field 2) is in parentheses and may itself hold spaces or ')'.
  const afterName = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // afterName[0] is field 3 (state), so field n is afterName[n - 3].
  const ticks = [14, 15, 16, 17].map((field) => Number(afterName[field - 3]));
  if (ticks.some((value) => !Number.isFinite(value))) return null;
  return (ticks.reduce((sum, value) => sum + value, 0) * 1000) / hz;
}

/** The process's CPU time so far in ms, or null when it cannot be read (gone, or not Linux). */
export async function readProcessCpuMs(pid: number | undefined): Promise<number | null> {
  if (pid === undefined) return null;
  try {
    return parseProcStatCpuMs(await readFile(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return null;
  }
}

/** The process group field of /proc/<pid>/stat (field 5), or undefined. */
function groupOf(stat: string): number | undefined {
  const group = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]);
  return Number.isInteger(group) ? group : undefined;
}

/**
 * The CPU time so far of every live process in group `pgid`, in ms: an engine started
 * detached (`wrangler pages dev` with its workerd, `netlify dev` with its static server)
 * leads its own group, and its children's time counts only once they exited and were
 * waited for, so the group's processes are summed. Null when /proc cannot be read.
 */
export async function readProcessGroupCpuMs(pgid: number | undefined): Promise<number | null> {
  if (pgid === undefined) return null;
  let pids: string[];
  try {
    pids = (await readdir('/proc')).filter((name) => /^\d+$/.test(name));
  } catch {
    return null;
  }
  let total = 0;
  for (const pid of pids) {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
    if (stat === '' || groupOf(stat) !== pgid) continue;
    total += parseProcStatCpuMs(stat) ?? 0;
  }
  return total;
}
