/**
 * The build's scratch folders in the system's temporary folder: the products kept on disk
 * (product-store/) and the Shopify Admin API's bulk result (sources/shopify-admin/). At
 * 1,000,000 products they hold gigabytes, and a build that is killed (a CI job cancelled, a
 * runner's time limit, Ctrl-C) cannot remove them itself.
 *
 * So each folder's name carries its owner: this machine's tag and the process id. A build
 * removes, before it makes its own, every scratch folder of this machine whose process is
 * gone (`sweepScratchFolders`). A signal handler could not do it: the emitters run for
 * minutes without yielding to the event loop, so a handler would only delay the kill.
 *
 * The machine's tag keeps a build from removing the folders of a build in another container
 * that shares the temporary folder: there a process id means nothing.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';

export type ScratchKind = 'products' | 'bulk';

const PREFIX = 'agent-catalog-';
/** `agent-catalog-<kind>-<machine tag>.<pid>-<6 characters mkdtemp adds>`. */
const NAME = /^agent-catalog-(?:products|bulk)-([0-9a-f]{8})\.([1-9][0-9]{0,9})-[A-Za-z0-9]{6}$/;

/** Eight hex digits of SHA-256 of the host name: enough to tell machines apart, and no name leaks. */
function machineTag(): string {
  return createHash('sha256').update(hostname()).digest('hex').slice(0, 8);
}

/** A new, empty folder under `parent` named for this process (see the module's comment). */
export function makeScratchFolder(kind: ScratchKind, parent: string = tmpdir()): string {
  return mkdtempSync(join(parent, `${PREFIX}${kind}-${machineTag()}.${process.pid}-`));
}

/** Whether a process with this id runs: `kill(pid, 0)` sends nothing and fails only when none does. */
export function processRuns(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, as another user.
    return (error as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}

/**
 * Removes the scratch folders under `parent` that a process of this machine made and left
 * behind when it died; returns their names. A folder it cannot read or remove stays (the
 * build goes on: a leftover costs disk, not correctness). Folders named otherwise, other
 * machines' folders and those of running processes are never touched.
 */
export function sweepScratchFolders(
  parent: string = tmpdir(),
  runs: (pid: number) => boolean = processRuns,
): string[] {
  let names: string[];
  try {
    names = readdirSync(parent);
  } catch {
    return [];
  }
  const tag = machineTag();
  const removed: string[] = [];
  for (const name of names) {
    const owner = NAME.exec(name);
    if (owner === null || owner[1] !== tag) continue;
    const pid = Number(owner[2]);
    if (pid === process.pid || runs(pid)) continue;
    try {
      rmSync(join(parent, name), { recursive: true, force: true });
      removed.push(name);
    } catch {
      // Left for the next build, or the system's temporary-file cleanup.
    }
  }
  return removed;
}
