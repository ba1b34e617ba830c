import { readdir, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Artifact } from '../../../generator/artifact.js';
import { textDigestedArtifact } from '../../../generator/compact-artifact.js';
import { isCatalogError } from '../../../generator/errors.js';
import { silentLogger } from '../../../generator/logger.js';
import { digestBytes, rememberSource } from '../../../generator/publish/file-digest.js';
import { readBundleDigests } from '../../../generator/publish/read-bundle.js';
import { openStagingSink } from '../../../generator/publish/staging-sink.js';
import { catchError } from '../../helpers/catch-error.js';
import { hashTree, makeWorkspace } from '../pipeline/helpers.js';

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
    { path: 'kb/notes.md', mediaType: 'text/markdown', body: '# 桃 🍑 unchanged\n' },
    {
      path: 'feeds/rows.jsonl.gz',
      mediaType: 'application/gzip',
      body: `{"row":"${version}"}\n`,
      encoding: 'gzip',
    },
  ];
}

async function publish(version: string) {
  const sink = await openStagingSink({
    target,
    logger: silentLogger,
    ...((await readBundleDigests(target)) ? { previous: await readBundleDigests(target) } : {}),
  });
  const spilled = bundle(version).map(sink.accept);
  return { sink, spilled };
}

const stagingLeft = async () => (await readdir(dir)).filter((name) => name.includes('staging'));

describe('the staging sink (documents written as they are emitted)', () => {
  it('when documents are accepted then each reads back from staging, gzip ones decoded, and commit publishes them', async () => {
    const { sink, spilled } = await publish('1');
    expect(spilled.map((artifact) => artifact.body)).toEqual(bundle('1').map((artifact) => artifact.body));
    expect(await sink.commit()).toEqual({ written: 3, unchanged: 0, removed: 0 });
    expect(Object.keys(await hashTree(target)).sort()).toEqual([
      'agent-catalog.json',
      'feeds/rows.jsonl.gz',
      'kb/notes.md',
    ]);
    expect(await stagingLeft()).toEqual([]);
  });

  it('when a document is unchanged then it is the same file after the next commit, and only the others are written', async () => {
    await (await publish('1')).sink.commit();
    const before = (await stat(join(target, 'kb/notes.md'))).ino;
    const { sink } = await publish('2');
    expect(await sink.commit()).toEqual({ written: 2, unchanged: 1, removed: 0 });
    expect((await stat(join(target, 'kb/notes.md'))).ino).toBe(before);
  });

  it('when the build gives up before commit then staging is removed and the last bundle is untouched', async () => {
    await (await publish('1')).sink.commit();
    const before = await hashTree(target);
    const { sink } = await publish('2');
    await sink.discard();
    expect(await hashTree(target)).toEqual(before);
    expect(await stagingLeft()).toEqual([]);
  });

  it('when a staged file changes before commit then PUBLISH_FAILED and the last bundle stays', async () => {
    await (await publish('1')).sink.commit();
    const before = await hashTree(target);
    const { sink } = await publish('2');
    await writeFile(join(sink.dir, 'agent-catalog.json'), '{"version":"tampered"}\n');
    const error = await sink.commit().catch((caught: unknown) => caught);
    expect(isCatalogError(error, 'PUBLISH_FAILED')).toBe(true);
    expect(await hashTree(target)).toEqual(before);
    expect(await stagingLeft()).toEqual([]);
  });

  it('when two documents claim one path then OUTPUT_INVALID', async () => {
    const sink = await openStagingSink({ target, logger: silentLogger });
    const [first] = bundle('1');
    if (!first) throw new Error('no artifact');
    sink.accept(first);
    expect(
      isCatalogError(
        catchError(() => sink.accept({ ...first })),
        'OUTPUT_INVALID',
      ),
    ).toBe(true);
    await sink.discard();
  });

  it('when a compressed file comes with the digest of the text the last one was made from then it is kept without reading the text', async () => {
    await (await publish('1')).sink.commit();
    const before = (await stat(join(target, 'feeds/rows.jsonl.gz'))).ino;
    const text = Buffer.from('{"row":"1"}\n', 'utf8');
    const previous = await readBundleDigests(target);
    if (previous === undefined) throw new Error('no bundle');
    rememberSource(previous, 'feeds/rows.jsonl.gz', digestBytes(text));
    const sink = await openStagingSink({ target, logger: silentLogger, previous });
    let reads = 0;
    const meta = { path: 'feeds/rows.jsonl.gz', mediaType: 'application/gzip' };
    const spilled = sink.accept(
      textDigestedArtifact(meta, digestBytes(text), () => {
        reads += 1;
        return text;
      }),
    );
    expect(reads).toBe(0);
    expect(sink.sources.get('feeds/rows.jsonl.gz')).toBe(digestBytes(text));
    expect(spilled.body).toBe('{"row":"1"}\n');
    await sink.commit();
    expect((await stat(join(target, 'feeds/rows.jsonl.gz'))).ino).toBe(before);
  });

  it('when a compressed file comes with the digest of another text then its text is read and written', async () => {
    await (await publish('1')).sink.commit();
    const previous = await readBundleDigests(target);
    if (previous === undefined) throw new Error('no bundle');
    rememberSource(previous, 'feeds/rows.jsonl.gz', digestBytes(Buffer.from('{"row":"1"}\n')));
    const sink = await openStagingSink({ target, logger: silentLogger, previous });
    const text = Buffer.from('{"row":"2"}\n', 'utf8');
    const meta = { path: 'feeds/rows.jsonl.gz', mediaType: 'application/gzip' };
    const spilled = sink.accept(textDigestedArtifact(meta, digestBytes(text), () => text));
    expect(spilled.body).toBe('{"row":"2"}\n');
    expect(await sink.commit()).toMatchObject({ written: 1 });
  });
});
