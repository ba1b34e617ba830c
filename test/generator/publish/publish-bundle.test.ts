import { spawn } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Artifact } from '../../../generator/artifact.js';
import { isCatalogError } from '../../../generator/errors.js';
import { silentLogger } from '../../../generator/logger.js';
import { publishBundle, recoverInterruptedPublish } from '../../../generator/publish/publish-bundle.js';
import type { Problem } from '../../../generator/validate/index.js';
import { hashTree, listDir, makeWorkspace } from '../pipeline/helpers.js';

let dir = '';
let cleanup: () => Promise<void> = async () => {};
let target = '';

beforeEach(async () => {
  ({ dir, cleanup } = await makeWorkspace());
  target = join(dir, 'dist');
});
afterEach(() => cleanup());

function bundle(version: string): Artifact[] {
  return [
    { path: 'agent-catalog.json', mediaType: 'application/json', body: `{"version":"${version}"}\n` },
    { path: '.well-known/agent.json', mediaType: 'application/json', body: `{"v":"${version}"}\n` },
    { path: 'kb/notes.md', mediaType: 'text/markdown', body: `# ${version} — 桃 🍑\n` },
  ];
}

const valid = (): Problem[] => [];

async function publish(artifacts: Artifact[], validate = valid): Promise<void> {
  await publishBundle({ target, artifacts, validate, logger: silentLogger });
}

describe('publishBundle', () => {
  it('when there is no bundle yet then the first one is written and no staging folder remains', async () => {
    await publish(bundle('one'));
    expect(await readFile(join(target, 'kb/notes.md'), 'utf8')).toBe('# one — 桃 🍑\n');
    expect(await listDir(dir)).toEqual(['dist']);
  });

  it('when a bundle exists then it is replaced whole: files the new one lacks are gone', async () => {
    await publish(bundle('one'));
    await publish(bundle('two').slice(0, 2));
    expect(Object.keys(await hashTree(target)).sort()).toEqual([
      '.well-known/agent.json',
      'agent-catalog.json',
    ]);
    expect(await readFile(join(target, 'agent-catalog.json'), 'utf8')).toContain('two');
    expect(await listDir(dir)).toEqual(['dist']);
  });

  it('when validation of the written files fails then the bundle stays byte-identical and OUTPUT_INVALID names the document', async () => {
    await publish(bundle('one'));
    const before = await hashTree(target);
    const error = await publish(bundle('two'), () => [
      { path: 'agent-catalog.json', rule: 'schema', message: 'broken' },
    ]).catch((e: unknown) => e);
    expect(isCatalogError(error, 'OUTPUT_INVALID') && error.details.documents).toEqual([
      'agent-catalog.json',
    ]);
    expect(await hashTree(target)).toEqual(before);
    expect(await listDir(dir)).toEqual(['dist']);
  });

  it('when an artifact path escapes the bundle then nothing is published', async () => {
    await publish(bundle('one'));
    const before = await hashTree(target);
    const evil: Artifact = { path: '../escaped.txt', mediaType: 'text/plain', body: 'x' };
    await expect(publish([...bundle('two'), evil])).rejects.toThrow(TypeError);
    expect(await hashTree(target)).toEqual(before);
    expect(await listDir(dir)).toEqual(['dist']);
  });

  it('when a killed build left a staging folder then the bundle is untouched and the folder is cleaned up next time', async () => {
    await publish(bundle('one'));
    const before = await hashTree(target);
    const stale = join(dir, '.dist-staging-deadbeef');
    await mkdir(join(stale, 'kb'), { recursive: true });
    await writeFile(join(stale, 'agent-catalog.json'), '{"half":');
    expect(await hashTree(target)).toEqual(before);
    await publish(bundle('two'));
    expect(await listDir(dir)).toEqual(['dist']);
  });

  it('when a kill came between the two renames then the backup is restored as the bundle', async () => {
    await publish(bundle('one'));
    const before = await hashTree(target);
    const { rename } = await import('node:fs/promises');
    await rename(target, join(dir, '.dist-backup'));
    await recoverInterruptedPublish(target, silentLogger);
    expect(await hashTree(target)).toEqual(before);
    expect(await listDir(dir)).toEqual(['dist']);
  });

  it('when both a backup and a bundle exist then the bundle wins and the backup is removed', async () => {
    await publish(bundle('one'));
    await mkdir(join(dir, '.dist-backup'));
    await writeFile(join(dir, '.dist-backup', 'agent-catalog.json'), '{"old":true}');
    await publish(bundle('two'));
    expect(await readFile(join(target, 'agent-catalog.json'), 'utf8')).toContain('two');
    expect(await listDir(dir)).toEqual(['dist']);
  });

  it('when another live build holds the lock then PUBLISH_FAILED and the bundle is untouched', async () => {
    await publish(bundle('one'));
    const before = await hashTree(target);
    const holder = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 20000)'], { stdio: 'ignore' });
    try {
      await mkdir(join(dir, '.dist-lock'));
      await writeFile(join(dir, '.dist-lock', 'pid'), String(holder.pid));
      const error = await publish(bundle('two')).catch((e: unknown) => e);
      expect(isCatalogError(error, 'PUBLISH_FAILED')).toBe(true);
      expect(await hashTree(target)).toEqual(before);
    } finally {
      holder.kill('SIGKILL');
    }
  });

  it('when the lock was left by a dead process then it is taken over', async () => {
    await mkdir(join(dir, '.dist-lock'));
    await writeFile(join(dir, '.dist-lock', 'pid'), '2147483646');
    await publish(bundle('one'));
    expect(await listDir(dir)).toEqual(['dist']);
  });
});
