/**
 * Issue 24, a newcomer's mistakes at `agent-catalog`, through the compiled CLI on a copy
 * of the embedded sample: a mistyped `--source` file is a bad argument naming the path it
 * was read as (exit 2), a mistyped flag, command or config key gets the nearest known
 * name, and each flag that overrides a config key says in `--help` what docs/config.md
 * says of that key.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { BUILD_FLAG_KEYS } from '../../../generator/override-docs.js';
import type { BuildReport } from '../../../generator/summary/report.js';
import { configReferenceRows } from '../../../scripts/docs/config-reference.js';
import { ensureCompiled, runCli } from './run-cli.js';
import { makeSampleWorkspace } from './sample-workspace.js';

let dir = '';
let cleanup: () => Promise<void> = async () => {};

beforeAll(() => ensureCompiled());
beforeEach(async () => {
  ({ dir, cleanup } = await makeSampleWorkspace());
});
afterEach(() => cleanup());

async function buildJson(args: string[]): Promise<{ code: number | null; report: BuildReport }> {
  const run = await runCli(['build', '--json', ...args], { cwd: dir, limitMs: 30_000 });
  return { code: run.code, report: JSON.parse(run.stdout.trim()) as BuildReport };
}

describe('a mistyped --source file', () => {
  it('when the --source file does not exist then the build exits 2 FLAG_INVALID naming the absolute path', async () => {
    const { code, report } = await buildJson(['--source', 'sample/upstream/prodcts.json']);
    expect(code).toBe(2);
    expect(report.error?.code).toBe('FLAG_INVALID');
    expect(report.error?.message).toContain(join(dir, 'sample', 'upstream', 'prodcts.json'));
    expect(report.published).toBe(false);
  });
});

describe('a mistyped flag or command', () => {
  it.each([
    [['build', '--sorce', 'x.json'], '--source?'],
    [['buidl'], 'build?'],
    [['preview', '--prot', '8081'], '--port?'],
  ])('when %j is run then it exits 2 with the nearest name and the usage', async (args, suggestion) => {
    const run = await runCli(args, { cwd: dir });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`(Did you mean ${suggestion})`);
    expect(run.stderr).toMatch(/^Usage: agent-catalog/m);
  });
});

describe('a mistyped config key', () => {
  async function editConfig(edit: (config: Record<string, unknown>) => void): Promise<void> {
    const file = join(dir, 'catalog.config.json');
    const config = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;
    edit(config);
    await writeFile(file, JSON.stringify(config));
  }

  it('when a top-level and a nested key are mistyped then each line names the nearest known key', async () => {
    await editConfig((config) => {
      config.contnet_dir = config.content_dir;
      delete config.content_dir;
      Object.assign(config.upstream ?? {}, { requests_per_minut: 30 });
    });
    const { code, report } = await buildJson([]);
    expect(code).toBe(2);
    expect(report.error?.code).toBe('CONFIG_INVALID');
    const lines = report.error?.message.split('\n') ?? [];
    expect(lines.find((line) => line.includes(': contnet_dir:'))).toMatch(/did you mean content_dir\?$/);
    expect(lines.find((line) => line.includes(': upstream.requests_per_minut:'))).toMatch(
      /did you mean requests_per_minute\?$/,
    );
  });

  it('when an unknown key is near no known key then no guess is offered', async () => {
    await editConfig((config) => {
      config.completely_unrelated = 'x';
    });
    const { code, report } = await buildJson([]);
    expect(code).toBe(2);
    expect(report.error?.message).toMatch(/completely_unrelated: unknown key$/m);
  });
});

/** The description `build --help` prints for `flag`: its wrapped lines (indented to its column) joined. */
function helpOf(help: string, flag: string): string | undefined {
  const lines = help.split('\n');
  const start = lines.findIndex((line) => new RegExp(`^\\s+${flag}\\b`).test(line));
  const first = lines[start] ?? '';
  const term = new RegExp(`^\\s+${flag}(\\s+<[^>]+>)?\\s+`).exec(first)?.[0];
  if (term === undefined) return undefined;
  const parts = [first.slice(term.length)];
  for (const line of lines.slice(start + 1)) {
    if (!line.startsWith(' '.repeat(term.length)) || line.trim() === '') break;
    parts.push(line.trim());
  }
  // Commander's own additions (choices, default, env) are about the flag, not the key.
  return parts.join(' ').replace(/( \((choices|default|env): [^)]*\))+$/, '');
}

describe('build --help against docs/config.md', () => {
  it('when a flag overrides a config key then its help is that key’s doc line and names the key', async () => {
    const run = await runCli(['build', '--help'], { cwd: dir });
    expect(run.code).toBe(0);
    const docs = new Map(configReferenceRows().map((row) => [row.key, row.meaning]));
    const flags = Object.entries(BUILD_FLAG_KEYS);
    expect(flags.length).toBeGreaterThanOrEqual(5);
    for (const [flag, key] of flags) {
      const meaning = docs.get(key);
      expect(meaning, `docs/config.md row for ${key}`).toBeDefined();
      expect(helpOf(run.stdout, flag), flag).toBe(`${meaning} (overrides ${key})`);
    }
  });

  it('when --site-url is described then it is where the bundle is published, not the merchant website', async () => {
    const run = await runCli(['build', '--help'], { cwd: dir });
    const help = helpOf(run.stdout, '--site-url') ?? '';
    expect(help).toContain('published');
    expect(help).not.toMatch(/merchant website/i);
  });
});
