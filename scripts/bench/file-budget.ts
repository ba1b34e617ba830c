/**
 * The file budget of issue 30, read from a real bundle: how many files it holds and its
 * fullest folder, and what the same bundle would hold at 1,000,000 products. The shards
 * that grow with the catalog (`_live/pages`, `_live/products`, `_live/variants`) are
 * replaced by the most the sizing can keep at that size (`shardCountRange`); every other
 * file is taken as it is. Targets: at most 20,000 files with 4,000 left for the parted
 * documents, and no folder over 10,000. Nothing of a million products is built.
 */
import { readdir } from 'node:fs/promises';
import { relative, sep } from 'node:path';
import { countShards, type ShardKind, shardCountRange } from '../../live/live-layout.js';
import { type BenchRow, judge } from './results.js';

const MILLION = 1_000_000;
const FILE_LIMIT = 20_000 - 4_000;
const FOLDER_LIMIT = 10_000;
const KINDS: readonly ShardKind[] = ['pages', 'products', 'variants'];

export interface FileCount {
  files: number;
  fullestFolder: { path: string; files: number };
  /** The files of each kind of shard. */
  shards: Partial<Record<ShardKind, number>>;
}

export async function countBundleFiles(dir: string): Promise<FileCount> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  const paths = entries
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, `${entry.parentPath}${sep}${entry.name}`).split(sep).join('/'));
  const folders = new Map<string, number>();
  for (const path of paths) {
    const folder = path.includes('/') ? path.slice(0, path.lastIndexOf('/')) : '';
    folders.set(folder, (folders.get(folder) ?? 0) + 1);
  }
  let fullestFolder = { path: '', files: 0 };
  for (const [path, files] of folders) if (files > fullestFolder.files) fullestFolder = { path, files };
  return { files: paths.length, fullestFolder, shards: countShards(paths) };
}

export function fileBudgetRow(size: number, count: FileCount): BenchRow {
  const range = shardCountRange(MILLION);
  const growing = KINDS.reduce((sum, kind) => sum + (count.shards[kind] ?? 0), 0);
  const atMillion = count.files - growing + KINDS.reduce((sum, kind) => sum + range[kind].most, 0);
  const fullestAtMillion = Math.max(...KINDS.map((kind) => range[kind].most), count.fullestFolder.files);
  const fits = judge(atMillion, FILE_LIMIT, false) === 'pass' && fullestAtMillion <= FOLDER_LIMIT;
  return {
    section: 'generator',
    name: `file budget N=${size.toLocaleString('en-US')} → 1,000,000`,
    figures: {
      files: count.files,
      'fullest folder': `${count.fullestFolder.path || '.'} (${count.fullestFolder.files})`,
      'files at 1M': atMillion,
      'fullest folder at 1M': fullestAtMillion,
    },
    target: `at 1M ≤ ${FILE_LIMIT.toLocaleString('en-US')} files (4,000 kept for parts), ≤ ${FOLDER_LIMIT.toLocaleString('en-US')} a folder`,
    verdict: fits ? 'pass' : 'miss',
  };
}
