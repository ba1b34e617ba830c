/**
 * The repository's own import graph, type imports included (`import type` and `export …
 * from` count: a cycle of types is still a cycle a reader has to untangle), read with
 * TypeScript's own scanner (`ts.preProcessFile`), so no regular expression guesses at
 * import syntax. Relative specifiers only: packages are not ours to order.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

/** Every `.ts` file under `dir`, as absolute paths, without the folders in `skip`. */
function listSources(dir: string, skip: ReadonlySet<string>): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory())
      return entry.name === 'node_modules' || skip.has(path) ? [] : listSources(path, skip);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/**
 * File → the files it imports, for the sources under `folders` (relative to `root`),
 * leaving out those under `exclude` (and the edges into them).
 */
export function readImportGraph(
  root: string,
  folders: readonly string[],
  exclude: readonly string[] = [],
): Map<string, string[]> {
  const skip = new Set(exclude.map((folder) => join(root, folder)));
  const files = folders.flatMap((folder) => listSources(join(root, folder), skip));
  const known = new Set(files);
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    const targets = importedFiles
      .map((imported) => imported.fileName)
      .filter((specifier) => specifier.startsWith('.'))
      .map((specifier) => resolve(dirname(file), specifier.replace(/\.js$/, '.ts')))
      .filter((target) => known.has(target));
    graph.set(
      relative(root, file),
      [...new Set(targets)].map((target) => relative(root, target)),
    );
  }
  return graph;
}

/** Each cycle found by a depth-first walk, as the files along it (the first repeated at the end). */
export function findCycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const cycles: string[][] = [];
  const visit = (file: string): void => {
    state.set(file, 'open');
    path.push(file);
    for (const next of graph.get(file) ?? []) {
      if (state.get(next) === 'open') cycles.push([...path.slice(path.indexOf(next)), next]);
      else if (!state.has(next)) visit(next);
    }
    path.pop();
    state.set(file, 'done');
  };
  for (const file of [...graph.keys()].sort()) if (!state.has(file)) visit(file);
  return cycles;
}
