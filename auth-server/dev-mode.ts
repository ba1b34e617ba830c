/**
 * `agent-auth serve --dev`: defaults for trying the issuer out on one's own machine. Local
 * trial and error registers many clients and sends many requests, and the production
 * limits (10 registrations an hour, 60 requests a minute) then answer 429 for up to an
 * hour; `--dev` turns both off unless a flag or variable sets them, and only on a
 * loopback interface, so a relaxed issuer is never exposed to a network by accident.
 */

/** Where commander says an option's value came from: `default`, `env`, `cli`, … */
export type ValueSource = string | undefined;

/** The serve options `--dev` relaxes, as commander names them. */
export const DEV_RELAXED_OPTIONS = ['rateLimit', 'registrationLimit'] as const;

const LOOPBACK_HOSTS = new Set(['127.0.0.1', '::1', 'localhost', '[::1]']);

export class DevModeError extends Error {
  readonly code = 'CONFIG_INVALID';
  constructor(message: string) {
    super(message);
    this.name = 'DevModeError';
  }
}

/**
 * Returns the flags with the rate limit and the registration throttle set to 0 (off)
 * where only their defaults applied; a value the person gave (flag or variable) wins.
 * Throws DevModeError for a host other than loopback.
 */
export function applyDevDefaults(
  flags: Readonly<Record<string, string | undefined>>,
  sourceOf: (option: string) => ValueSource,
): Record<string, string | undefined> {
  const host = flags.host ?? '127.0.0.1';
  if (!LOOPBACK_HOSTS.has(host))
    throw new DevModeError(
      `--dev is for a local issuer only: --host ${host} is not loopback (use 127.0.0.1, ::1 or localhost, or drop --dev)`,
    );
  const relaxed: Record<string, string | undefined> = { ...flags };
  for (const option of DEV_RELAXED_OPTIONS) {
    const source = sourceOf(option);
    if (source === undefined || source === 'default') relaxed[option] = '0';
  }
  return relaxed;
}

/** The lines printed on stderr when the issuer starts in development mode. */
export function devModeBanner(flags: Readonly<Record<string, string | undefined>>): string {
  // `--rate-limit 0` turns every limit off, the registration throttle included.
  const rateOff = flags.rateLimit === '0';
  const rate = rateOff ? 'off' : `${flags.rateLimit} a minute`;
  const registration =
    rateOff || flags.registrationLimit === '0' ? 'off' : `${flags.registrationLimit} an hour`;
  return [
    '',
    '  *** agent-auth: DEVELOPMENT MODE (--dev) ***',
    `  rate limit: ${rate}; client registration throttle: ${registration}`,
    '  client metadata documents (client_id URLs) may be fetched from loopback, over http too',
    '  Never run --dev in production: anyone could register clients and send requests without limit.',
    '',
  ].join('\n');
}
