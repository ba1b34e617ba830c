/**
 * The doc lines of the config keys a `build` flag overrides, kept in one place so the
 * flag's `--help` and the key's line in docs/config.md (generated from the zod schema,
 * which reads these strings) say the same thing and cannot drift (issue 24). Plain strings
 * with no zod import: `agent-catalog --help` loads this module and must stay fast.
 */

export const OVERRIDABLE_KEY_DOCS = {
  site_url:
    'origin the bundle is published at, without a path (default merchant.url); a bundle on its own host is e.g. https://agents.<store>',
  base_url: 'where the catalog paths are mounted (default site_url; may carry a path)',
  auth_url: 'the OAuth 2.0 / OpenID Connect issuer identifier',
  'upstream.source':
    "URL of the store, or a path to a catalog file (in the config file relative to the file's folder; as --source, to the working directory)",
  'upstream.format': 'upstream shape; auto-detected from the source when left out',
} as const;

export type OverridableKey = keyof typeof OVERRIDABLE_KEY_DOCS;

/** Each `build` flag that overrides a key of `catalog.config.json`, and that key. */
export const BUILD_FLAG_KEYS = {
  '--site-url': 'site_url',
  '--base-url': 'base_url',
  '--auth-url': 'auth_url',
  '--source': 'upstream.source',
  '--source-format': 'upstream.format',
} as const satisfies Record<string, OverridableKey>;

/** The `--help` line of a flag that overrides a config key: the key's own doc line, and which key. */
export function overridingFlagHelp(flag: keyof typeof BUILD_FLAG_KEYS): string {
  const key = BUILD_FLAG_KEYS[flag];
  return `${OVERRIDABLE_KEY_DOCS[key]} (overrides ${key})`;
}
