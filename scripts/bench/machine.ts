/**
 * Describes the machine a run came from (CPU model, cores, memory, Node version) and
 * reads the load average, so every figure is stored beside the conditions it was taken
 * in. `waitForQuiet` holds a run back, for a bounded time, until other work on the
 * machine has died down: figures taken on a busy 2-core box say more about the neighbours
 * than about the code.
 */
import { readFile } from 'node:fs/promises';
import { availableParallelism, cpus, loadavg, totalmem } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';

export interface MachineInfo {
  cpuModel: string;
  cores: number;
  memoryMiB: number;
  node: string;
  platform: string;
}

async function readCpuModel(): Promise<string> {
  try {
    const text = await readFile('/proc/cpuinfo', 'utf8');
    const match = /^model name\s*:\s*(.+)$/m.exec(text);
    if (match?.[1]) return match[1].trim();
  } catch {
    // Not Linux: fall back to what os.cpus() reports.
  }
  return cpus()[0]?.model ?? 'unknown';
}

export async function describeMachine(): Promise<MachineInfo> {
  return {
    cpuModel: await readCpuModel(),
    cores: availableParallelism(),
    memoryMiB: Math.round(totalmem() / 1024 / 1024),
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
  };
}

export function readLoadAverage(): number[] {
  return loadavg().map((value) => Math.round(value * 100) / 100);
}

export interface QuietResult {
  quiet: boolean;
  waitedSeconds: number;
  loadavg: number[];
}

/**
 * Polls the 1-minute load average every 10 s until it is under `threshold` or
 * `maxSeconds` have passed (0 = do not wait). Bounded by `maxSeconds`.
 */
export async function waitForQuiet(
  threshold: number,
  maxSeconds: number,
  onWait: (load: number[]) => void,
): Promise<QuietResult> {
  const started = Date.now();
  for (;;) {
    const load = readLoadAverage();
    const waitedSeconds = Math.round((Date.now() - started) / 1000);
    if ((load[0] ?? 0) < threshold) return { quiet: true, waitedSeconds, loadavg: load };
    if (waitedSeconds >= maxSeconds) return { quiet: false, waitedSeconds, loadavg: load };
    onWait(load);
    await sleep(Math.min(10_000, Math.max(1000, (maxSeconds - waitedSeconds) * 1000)));
  }
}
