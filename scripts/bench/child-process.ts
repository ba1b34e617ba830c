/**
 * Child processes for the benchmarks: `runMeasured` runs a command to completion and
 * reports its wall time, its user plus system CPU time and peak resident memory (through
 * GNU time's %U, %S and %M when /usr/bin/time exists, otherwise VmHWM polled in /proc and
 * no CPU figure), and `startServer` spawns a server that prints `listening on <url>`,
 * waits for that line, reads its CPU time on demand (cpu-time.ts) and stops it again.
 * Every wait is bounded by a timeout, and every server started here is stopped here.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readProcessCpuMs } from './cpu-time.js';

export interface MeasuredRun {
  wallMs: number;
  /** User plus system CPU time in ms (GNU time's %U + %S), or null without GNU time. */
  cpuMs: number | null;
  /** Peak resident set size in MiB, or null when it could not be read. */
  peakRssMiB: number | null;
  exitCode: number | null;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  input?: string;
  timeoutMs?: number;
}

const GNU_TIME = '/usr/bin/time';

async function readPeakFromProc(pid: number | undefined): Promise<number | null> {
  if (pid === undefined) return null;
  try {
    const status = await readFile(`/proc/${pid}/status`, 'utf8');
    const match = /^VmHWM:\s+(\d+) kB$/m.exec(status);
    return match?.[1] ? Number(match[1]) : null;
  } catch {
    return null;
  }
}

/** Keeps the first 256 KiB of each stream: enough for errors, bounded under a request log. */
const KEEP_CHARS = 256 * 1024;

function collect(child: ChildProcess): { stdout: () => string; stderr: () => string } {
  let stdout = '';
  let stderr = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    if (stdout.length < KEEP_CHARS) stdout += chunk;
  });
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    if (stderr.length < KEEP_CHARS) stderr += chunk;
  });
  return { stdout: () => stdout, stderr: () => stderr };
}

/** Runs `command args` to completion; wall time is measured from spawn to exit. */
export async function runMeasured(
  command: string,
  args: readonly string[],
  options: RunOptions = {},
): Promise<MeasuredRun> {
  const useTime = existsSync(GNU_TIME);
  const scratch = await mkdtemp(join(tmpdir(), 'bench-time-'));
  const timeFile = join(scratch, 'rss');
  const [file, argv] = useTime
    ? [GNU_TIME, ['-f', '%M %U %S', '-o', timeFile, command, ...args]]
    : [command, [...args]];
  const started = performance.now();
  const child = spawn(file, argv, { cwd: options.cwd, env: options.env ?? process.env, stdio: 'pipe' });
  const output = collect(child);
  child.stdin?.end(options.input ?? '');
  let polledPeakKiB = 0;
  const poll = useTime
    ? undefined
    : setInterval(() => {
        readPeakFromProc(child.pid).then(
          (kib) => {
            if (kib !== null) polledPeakKiB = Math.max(polledPeakKiB, kib);
          },
          () => undefined,
        );
      }, 20);
  const timeout = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 600_000);
  const exitCode = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => resolve(code));
  }).finally(() => {
    clearTimeout(timeout);
    if (poll) clearInterval(poll);
  });
  const wallMs = performance.now() - started;
  let peakKiB: number | null = polledPeakKiB || null;
  let cpuMs: number | null = null;
  if (useTime) {
    const text = await readFile(timeFile, 'utf8').catch(() => '');
    // GNU time prints "Command exited with non-zero status N" before the figures on failure.
    const [rss, user, system] = (text.trim().split('\n').at(-1) ?? '').split(' ').map(Number);
    peakKiB = rss !== undefined && Number.isFinite(rss) && rss > 0 ? rss : null;
    const seconds = (user ?? Number.NaN) + (system ?? Number.NaN);
    cpuMs = Number.isFinite(seconds) ? seconds * 1000 : null;
  }
  await rm(scratch, { recursive: true, force: true });
  return {
    wallMs,
    cpuMs,
    peakRssMiB: peakKiB === null ? null : peakKiB / 1024,
    exitCode,
    stdout: output.stdout(),
    stderr: output.stderr(),
  };
}

export interface RunningServer {
  url: string;
  pid: number | undefined;
  /** CPU time (user + system, its waited-for children included) the server has used so far, in ms. */
  cpuMs(): Promise<number | null>;
  /** Output so far (for error messages). */
  output(): string;
  stop(): Promise<void>;
}

/** Spawns a server and resolves once it prints `listening on <url>` (or fails after `timeoutMs`). */
export async function startServer(
  command: string,
  args: readonly string[],
  options: RunOptions = {},
): Promise<RunningServer> {
  const child = spawn(command, [...args], {
    cwd: options.cwd,
    env: options.env ?? process.env,
    stdio: 'pipe',
  });
  const output = collect(child);
  // The server's request log is read only up to the first line; drain the rest so a busy
  // logger never blocks on a full pipe.
  const exited = new Promise<void>((resolve) => child.once('close', () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      reject(
        new Error(
          `${command} ${args.join(' ')} did not print "listening on" within ${options.timeoutMs ?? 15_000} ms:\n${output.stderr()}`,
        ),
      );
    }, options.timeoutMs ?? 15_000);
    const check = (): void => {
      const match = /listening on (\S+)/.exec(output.stdout());
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    };
    child.stdout?.on('data', check);
    child.once('close', (code) => {
      clearTimeout(timer);
      reject(
        new Error(`${command} exited with ${code} before listening:\n${output.stderr()}${output.stdout()}`),
      );
    });
  });
  return {
    url,
    pid: child.pid,
    cpuMs: () => readProcessCpuMs(child.pid),
    output: () => `${output.stdout()}${output.stderr()}`,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const killer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(killer);
    },
  };
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  if (sorted.length === 0) return Number.NaN;
  return sorted.length % 2 === 1
    ? (sorted[middle] ?? Number.NaN)
    : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}
