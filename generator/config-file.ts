/**
 * Reading `catalog.config.json` and turning it, together with flags and environment
 * variables, into a ResolvedConfig. This is the one place the config precedence is
 * applied (flags > env `AGENT_CATALOG_*` > config file > schema defaults); content front
 * matter and upstream data are merged later, per product, in `merge.ts`. Every failure is
 * CONFIG_INVALID naming the file (or FLAG_INVALID naming the flag or variable).
 */
import { readFile, stat } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import {
  type ConfigOverrides,
  ENV_OVERRIDES,
  overridesFromEnv,
  type ResolvedConfig,
  resolveConfig,
  URL_OVERRIDE_KEYS,
} from './config.js';
import { httpUrl } from './config-sections.js';
import { CatalogError } from './errors.js';
import { resolveSourceLocation } from './sources/documents.js';

/** Config files are small; a bigger one is a mistake (a catalog dump passed as --config). */
const MAX_CONFIG_BYTES = 1024 * 1024;

export interface LoadedConfigFile {
  /** Absolute path of the file. */
  file: string;
  /** Directory its relative paths resolve against. */
  configDir: string;
  /** Parsed JSON, not yet validated. */
  raw: unknown;
}

/** Reads and parses the config file; validation is `resolveConfig`'s job. */
export async function loadConfigFile(path: string): Promise<LoadedConfigFile> {
  const file = resolve(path);
  let text: string;
  try {
    const bytes = await readFile(file);
    if (bytes.byteLength > MAX_CONFIG_BYTES) {
      throw new CatalogError('CONFIG_INVALID', `${file}: larger than ${MAX_CONFIG_BYTES} bytes`, { file });
    }
    text = bytes.toString('utf8');
  } catch (error) {
    if (error instanceof CatalogError) throw error;
    const reason = isErrnoCode(error, 'ENOENT') ? 'file not found' : 'cannot read the file';
    throw new CatalogError('CONFIG_INVALID', `${file}: ${reason}`, { file }, { cause: error });
  }
  return { file, configDir: dirname(file), raw: parseJson(file, text) };
}

function parseJson(file: string, text: string): unknown {
  try {
    return JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (error) {
    const position = describeJsonPosition(text, error);
    throw new CatalogError('CONFIG_INVALID', `${file}: invalid JSON${position}`, { file }, { cause: error });
  }
}

/** Node's JSON.parse messages carry "position N"; turn it into line and column for people. */
function describeJsonPosition(text: string, error: unknown): string {
  const match = error instanceof Error ? /position (\d+)/.exec(error.message) : null;
  if (!match) return '';
  const offset = Number(match[1]);
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  const column = offset - before.lastIndexOf('\n');
  return ` at line ${line}, column ${column}`;
}

function isErrnoCode(error: unknown, code: string): boolean {
  return typeof error === 'object' && error !== null && 'code' in error && error.code === code;
}

/** Checks each override on its own, so a bad value names the flag or variable it came from. */
function checkOverrides(overrides: ConfigOverrides, describe: (key: keyof ConfigOverrides) => string): void {
  for (const key of URL_OVERRIDE_KEYS) {
    const value = overrides[key];
    if (value !== undefined && !httpUrl.safeParse(value).success) {
      throw new CatalogError('FLAG_INVALID', `${describe(key)}: expected an absolute http(s) URL`, {
        flag: describe(key),
        value,
      });
    }
  }
}

const FLAG_NAMES: Record<keyof ConfigOverrides, string> = {
  site_url: '--site-url',
  base_url: '--base-url',
  auth_url: '--auth-url',
  source: '--source',
  source_format: '--source-format',
};

function envNameOf(key: keyof ConfigOverrides): string {
  const entry = Object.entries(ENV_OVERRIDES).find(([, value]) => value === key);
  return entry ? entry[0] : key;
}

/**
 * A source file named on the command line (or in the environment) that is not there is a
 * mistyped argument, exit 2 naming the path it was resolved to, rather than an upstream
 * failure that keeps the last bundle (issue 24).
 */
async function assertSourceFile(path: string, name: string): Promise<void> {
  let reason: string | undefined;
  try {
    if (!(await stat(path)).isFile()) reason = 'not a file';
  } catch (error) {
    reason = isErrnoCode(error, 'ENOENT') ? 'file not found' : 'cannot read the file';
  }
  if (reason !== undefined) {
    throw new CatalogError('FLAG_INVALID', `${name} ${path}: ${reason}`, { flag: name, path });
  }
}

export interface ConfigSources {
  /** Path of the config file (relative to `cwd`). */
  configPath: string;
  flags?: ConfigOverrides;
  env?: Readonly<Record<string, string | undefined>>;
  /** Where relative paths given on the command line resolve. */
  cwd: string;
}

/**
 * THE precedence, highest first: command-line flags, then `AGENT_CATALOG_*` environment
 * variables, then `catalog.config.json`, then the schema's defaults. A relative
 * `--source` path resolves against the working directory (where the person typed it),
 * a relative `upstream.source` in the file against the file's directory.
 */
export async function resolveConfigSources(sources: ConfigSources): Promise<ResolvedConfig> {
  const { cwd } = sources;
  const flags: ConfigOverrides = { ...sources.flags };
  const env = overridesFromEnv(sources.env ?? {});
  checkOverrides(flags, (key) => FLAG_NAMES[key]);
  checkOverrides(env, envNameOf);
  const named = [
    [flags, FLAG_NAMES.source],
    [env, envNameOf('source')],
  ] as const;
  for (const [overrides, name] of named) {
    // The sources' own reading of a location, so a `file:` URL is a path and not a relative name.
    const location =
      overrides.source === undefined ? undefined : resolveSourceLocation(overrides.source, cwd);
    if (location?.kind === 'file') {
      overrides.source = location.path;
      await assertSourceFile(location.path, name);
    }
  }
  const loaded = await loadConfigFile(resolve(cwd, sources.configPath));
  return resolveConfig(loaded.raw, { file: loaded.file, configDir: loaded.configDir, flags, env });
}
