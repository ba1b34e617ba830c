/**
 * The repository's own documents, for the documentation tests: every Markdown file a
 * reader of the clone may open (the README, CHANGELOG, BENCHMARKS, docs/ and the sample
 * merchant's content), never installed or generated folders.
 */
import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';

export const ROOT = join(import.meta.dirname, '..', '..');

// Installed, generated or scratch folders: not the project's documents.
const SKIPPED = new Set([
  'node_modules',
  'lib',
  'dist',
  'data',
  '.git',
  'coverage',
  'bench-results',
  'test-results',
  '.tmp',
]);

function skipped(name: string): boolean {
  return SKIPPED.has(name) || name.startsWith('dist.') || name.startsWith('.dist-');
}

/** Paths relative to the root, sorted. */
export function markdownFiles(dir = ROOT): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (skipped(entry.name)) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) found.push(...markdownFiles(path));
    else if (entry.isFile() && entry.name.endsWith('.md')) found.push(relative(ROOT, path));
  }
  return found.sort();
}

/** The documents whose runnable blocks are run: README.md and docs/*.md. */
export function guideFiles(): string[] {
  return markdownFiles().filter((file) => file === 'README.md' || /^docs\/[^/]+\.md$/.test(file));
}
