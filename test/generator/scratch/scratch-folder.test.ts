/**
 * A build's scratch folders (its products on disk, a bulk export) are removed by the next
 * build once the process that made them is gone, and only then: a running build's folders,
 * another machine's and anything else in the temporary folder stay.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { makeScratchFolder, processRuns, sweepScratchFolders } from '../../../generator/scratch-folder.js';
import { ensureCompiled } from '../cli/run-cli.js';
import { REPO_ROOT } from '../pipeline/helpers.js';

const MODULE = pathToFileURL(join(REPO_ROOT, 'lib/generator/scratch-folder.js')).href;

let parent = '';
const children: ChildProcess[] = [];

beforeAll(() => ensureCompiled());
beforeEach(async () => {
  parent = await mkdtemp(join(tmpdir(), 'scratch-sweep-'));
});
afterEach(async () => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
  await rm(parent, { recursive: true, force: true });
});

/**
 * Another Node process makes a scratch folder under `parent` and then exits, or (`stay`)
 * keeps running; resolves to the folder's name and the process.
 */
function folderOfAnotherProcess(stay: boolean): Promise<{ name: string; child: ChildProcess }> {
  const script = [
    `const { makeScratchFolder } = await import(${JSON.stringify(MODULE)});`,
    `const dir = makeScratchFolder('products', process.argv[1]);`,
    `process.stdout.write(dir.slice(process.argv[1].length + 1) + '\\n');`,
    stay ? 'setInterval(() => {}, 1000);' : '',
  ].join('\n');
  const child = spawn(process.execPath, ['--input-type=module', '-e', script, parent], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(child);
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      if (out.endsWith('\n')) {
        const name = out.trim();
        if (stay) resolve({ name, child });
        else child.once('exit', () => resolve({ name, child }));
      }
    });
    child.once('error', reject);
  });
}

describe('scratch folders', () => {
  it('when the process that made a folder is gone then the sweep removes it with its files', async () => {
    const { name, child } = await folderOfAnotherProcess(false);
    expect(child.pid).toBeDefined();
    expect(processRuns(child.pid ?? 0)).toBe(false);
    await writeFile(join(parent, name, 'products.txt'), 'x'.repeat(10_000));
    expect(sweepScratchFolders(parent)).toEqual([name]);
    expect(await readdir(parent)).toEqual([]);
  });

  it('when the process that made a folder still runs then the sweep leaves it', async () => {
    const { name } = await folderOfAnotherProcess(true);
    const own = makeScratchFolder('bulk', parent);
    expect(sweepScratchFolders(parent)).toEqual([]);
    expect((await readdir(parent)).sort()).toEqual([name, own.slice(parent.length + 1)].sort());
  });

  it('when a folder is not a scratch folder of this machine then the sweep never touches it', async () => {
    const { name: dead } = await folderOfAnotherProcess(false);
    // The same dead process's folder as another machine would name it: its tag differs.
    const tag = /-([0-9a-f]{8})\./.exec(dead)?.[1] ?? '';
    expect(tag).toHaveLength(8);
    const otherTag = [...tag].map((digit) => (digit === '0' ? '1' : '0')).join('');
    const foreign = dead.replace(`-${tag}.`, `-${otherTag}.`);
    await mkdir(join(parent, foreign));
    const others = ['agent-catalog-products-abcdef', 'agent-catalog-tmp-x', 'notes', `${dead}-copy`];
    for (const name of others) await mkdir(join(parent, name));
    await rm(join(parent, dead), { recursive: true });
    expect(sweepScratchFolders(parent)).toEqual([]);
    expect((await readdir(parent)).sort()).toEqual([foreign, ...others].sort());
  });

  it('when the temporary folder cannot be read then the sweep removes nothing and does not throw', () => {
    expect(sweepScratchFolders(join(parent, 'missing'))).toEqual([]);
  });
});
