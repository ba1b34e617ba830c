/**
 * The issuer's configuration: one zod schema that is the single source of truth for every
 * key, its default and its meaning. `resolveConfig` is pure (flags and env are passed in
 * as plain values) so it is tested without a process; the CLI is the only caller that
 * reads `process.env`. The issuer identifier is taken exactly as configured and never
 * derived from a request's Host header (RFC 8414 §2, CONTRACT "Public URLs").
 */
import { z } from 'zod';
import { checkMailConfig, MAIL_CONFIG_SOURCES, mailConfigShape } from './mail/mail-config.js';
import { trustProxySchema } from './middleware/trust-proxy.js';

const DEFAULT_PORT = 4000;

const portSchema = z.coerce.number().int().min(0).max(65535);

function isHttpUrlWithoutQuery(value: string): boolean {
  try {
    const url = new URL(value);
    // RFC 8414 §2: the issuer "is a URL that uses the https scheme and has no query or
    // fragment components"; http is accepted too so the issuer runs on loopback.
    return (url.protocol === 'https:' || url.protocol === 'http:') && !url.search && !url.hash;
  } catch {
    return false;
  }
}

/** RFC 8707 §2: a resource "MUST be an absolute URI" and "MUST NOT include a fragment component". */
function isResourceIdentifier(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'https:' || url.protocol === 'http:') && !value.includes('#');
  } catch {
    return false;
  }
}

/** What the CLI (or a test) hands in; every key optional, strings accepted where a flag gives one. */
export const issuerConfigSchema = z.object({
  /** TCP port to listen on; 0 picks a free one. */
  port: portSchema.default(DEFAULT_PORT),
  /** Interface to bind. */
  host: z.string().min(1).default('127.0.0.1'),
  /** The issuer identifier; defaults to http://127.0.0.1:<port>. */
  issuer: z
    .string()
    .refine(isHttpUrlWithoutQuery, 'must be an http(s) URL without query or fragment')
    .refine((v) => !v.endsWith('/'), 'must not end with a slash')
    .optional(),
  /** A file path (embedded SQLite) or a postgres:// URL. */
  db: z.string().min(1).default('data/auth.sqlite'),
  /** Requests a minute per client; 0 turns limiting off (enforced from issue 6 on). */
  rateLimit: z.coerce.number().int().min(0).max(1_000_000).default(60),
  /** Access token lifetime in seconds (short: the RFC 9068 tokens cannot be recalled off-site). */
  accessTokenTtl: z.number().int().positive().default(600),
  /** ID token lifetime in seconds. */
  idTokenTtl: z.number().int().positive().default(600),
  /** Authorization code lifetime; RFC 6749 §4.1.2 recommends at most 10 minutes. */
  codeTtl: z.number().int().positive().default(60),
  /** Refresh token lifetime in seconds (also bounded by the session it was granted in). */
  refreshTokenTtl: z
    .number()
    .int()
    .positive()
    .default(14 * 24 * 3600),
  /** Browser session lifetime in seconds. */
  sessionTtl: z
    .number()
    .int()
    .positive()
    .default(14 * 24 * 3600),
  /** How long a started sign-in (an authorization request waiting for the customer) lives. */
  interactionTtl: z
    .number()
    .int()
    .positive()
    .default(30 * 60),
  /** JWKS Cache-Control max-age, and how long a rotated-in key is published before it signs. */
  jwksMaxAge: z.number().int().min(0).default(300),
  /** Audience of access tokens (RFC 9068 §2.2); default: the issuer itself, i.e. its userinfo endpoint. */
  accessTokenAudience: z.string().url().optional(),
  /**
   * The resources (RFC 8707) a client may name with `resource`: absolute URIs without a
   * fragment. Default: the issuer itself (its userinfo) and the bundle's MCP endpoint,
   * `{base_url}/mcp`, read from --catalog-config.
   */
  resources: z
    .array(z.string().refine(isResourceIdentifier, 'must be an absolute http(s) URI without a fragment'))
    .optional(),
  /**
   * Client ID Metadata Documents on loopback (development and tests only): lets the issuer
   * fetch a `client_id` on 127.0.0.1 or [::1], over http as well. Set by --dev.
   */
  allowLoopbackClientMetadata: z.boolean().default(false),
  /** Seconds between clean-ups of expired codes, tokens and sessions. */
  cleanupInterval: z.number().int().positive().default(600),
  /** Proxies whose X-Forwarded-For is believed: addresses, CIDRs, loopback/linklocal/uniquelocal; none by default. */
  trustProxy: trustProxySchema,
  /** Client registrations an hour per address (on top of the rate limit); 0 turns the throttle off. */
  registrationLimit: z.coerce.number().int().min(0).max(1_000_000).default(10),
  /** Days after which a client that never obtained a token is deleted; 0 keeps every client. */
  unusedClientDays: z.coerce.number().int().min(0).max(36_500).default(30),
  ...mailConfigShape,
  keyEncryptionKey: z
    .string()
    .min(1)
    .optional()
    .describe(
      'The key-encryption key that seals the private signing keys at rest: 32 random bytes in base64 (openssl rand -base64 32). Set through AUTH_KEY_ENCRYPTION_KEY, never as a flag. An https issuer refuses to start without it (or keyEncryptionKeyFile).',
    ),
  keyEncryptionKeyFile: z
    .string()
    .min(1)
    .optional()
    .describe(
      'A file holding the key-encryption key instead (readable by its owner only): --key-encryption-key-file (AUTH_KEY_ENCRYPTION_KEY_FILE).',
    ),
});

// How each key is set from outside, so a refused value names the flag or variable to fix.
const CONFIG_SOURCES: Readonly<Record<string, string>> = {
  port: '--port (PORT)',
  host: '--host',
  issuer: '--issuer (AUTH_ISSUER)',
  db: '--db (AUTH_DATABASE_URL)',
  rateLimit: '--rate-limit (AUTH_RATE_LIMIT)',
  trustProxy: '--trust-proxy (AUTH_TRUST_PROXY)',
  registrationLimit: '--registration-limit (AUTH_REGISTRATION_LIMIT)',
  unusedClientDays: '--reap-unused-clients (AUTH_REAP_UNUSED_CLIENTS)',
  resources: '--resource (AUTH_RESOURCES)',
  ...MAIL_CONFIG_SOURCES,
  keyEncryptionKey: 'AUTH_KEY_ENCRYPTION_KEY',
  keyEncryptionKeyFile: '--key-encryption-key-file (AUTH_KEY_ENCRYPTION_KEY_FILE)',
};

/** The flag or variable behind a refused value; an item of a list (`resources.0`) names its list's. */
function sourceOf(path: readonly PropertyKey[]): string | undefined {
  return CONFIG_SOURCES[path.join('.')] ?? CONFIG_SOURCES[String(path[0])];
}

export type IssuerConfigInput = z.input<typeof issuerConfigSchema>;

export interface IssuerConfig
  extends Omit<z.output<typeof issuerConfigSchema>, 'issuer' | 'accessTokenAudience' | 'resources'> {
  issuer: string;
  accessTokenAudience: string;
  /**
   * The resources this issuer mints tokens for, the default audience first. Configured, or
   * (`resourcesFromCatalog`) the default audience plus what the catalog config names,
   * filled in by `bindServedResources` once that file is read.
   */
  resources: readonly string[];
  /** True when no resource was configured and the list follows the issuer and the catalog. */
  resourcesFromCatalog: boolean;
  /** True when the issuer is https: session cookies then carry `Secure`. */
  secureCookies: boolean;
  /** True when no issuer was configured and it follows the port (see `bindIssuerToPort`). */
  issuerFromPort: boolean;
}

export class ConfigError extends Error {
  readonly code = 'CONFIG_INVALID';
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ConfigError';
  }
}

/** Validates the input and fills in the derived values (issuer, audience). Throws ConfigError. */
export function resolveConfig(input: IssuerConfigInput): IssuerConfig {
  const parsed = issuerConfigSchema.safeParse(input);
  if (!parsed.success) {
    const detail = parsed.error.issues
      .map((i) => `${sourceOf(i.path) ?? (i.path.join('.') || 'config')}: ${i.message}`)
      .join('; ');
    throw new ConfigError(`invalid issuer configuration: ${detail}`);
  }
  const value = parsed.data;
  if (value.keyEncryptionKey !== undefined && value.keyEncryptionKeyFile !== undefined) {
    throw new ConfigError(
      `invalid issuer configuration: set ${CONFIG_SOURCES.keyEncryptionKey} or ${CONFIG_SOURCES.keyEncryptionKeyFile}, not both`,
    );
  }
  const issuer = value.issuer ?? `http://127.0.0.1:${value.port}`;
  const mailProblem = checkMailConfig(value, issuer);
  if (mailProblem) throw new ConfigError(`invalid issuer configuration: ${mailProblem}`);
  const accessTokenAudience = value.accessTokenAudience ?? issuer;
  return {
    ...value,
    issuer,
    accessTokenAudience,
    resources: value.resources ? [...new Set(value.resources)] : [accessTokenAudience],
    resourcesFromCatalog: value.resources === undefined,
    secureCookies: issuer.startsWith('https:'),
    issuerFromPort: value.issuer === undefined,
  };
}

/**
 * With `--port 0` and no `--issuer`, the default issuer can only be known once the socket
 * is bound; the server calls this with the real port before it builds the app.
 */
export function bindIssuerToPort(config: IssuerConfig, port: number): IssuerConfig {
  if (!config.issuerFromPort) return config;
  const issuer = `http://127.0.0.1:${port}`;
  const audienceFollows = config.accessTokenAudience === config.issuer;
  const accessTokenAudience = audienceFollows ? issuer : config.accessTokenAudience;
  const resources = config.resourcesFromCatalog
    ? config.resources.map((r) => (r === config.accessTokenAudience ? accessTokenAudience : r))
    : config.resources;
  return { ...config, port, issuer, accessTokenAudience, resources };
}

/**
 * The default resources once the catalog config is read: the issuer's own audience and the
 * bundle's MCP endpoint (`mcpEndpoint`, absent without a catalog config). A configured
 * list is kept as it is.
 */
export function bindServedResources(config: IssuerConfig, mcpEndpoint: string | undefined): IssuerConfig {
  if (!config.resourcesFromCatalog || mcpEndpoint === undefined) return config;
  return { ...config, resources: [...new Set([config.accessTokenAudience, mcpEndpoint])] };
}

/** True when `db` names a PostgreSQL database rather than a SQLite file. */
export function isPostgresUrl(db: string): boolean {
  return /^postgres(ql)?:\/\//i.test(db);
}
