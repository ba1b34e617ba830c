/**
 * `agent-catalog hooks`: prints the webhook subscriptions the store needs so the catalog is
 * republished within a minute of a change (the receiver's URL, the topics, where each
 * secret lives), and with `--register` creates the missing ones through the store's Admin
 * API (`../hooks/register-hooks.ts`). Never prints a secret or a token, only the names of
 * the variables that hold them and whether they are set here. Exit 0 done, 1 the store's
 * API failed or refused, 2 a bad flag, config or missing variable.
 */
import { resolveConfigSources } from '../config-file.js';
import { describeErrorChain, exitStatusFor } from '../errors.js';
import { type HookPlan, type HookPlatform, planHooks } from '../hooks/hook-plan.js';
import { registerHooks } from '../hooks/register-hooks.js';
import type { Registration } from '../hooks/shopify-subscriptions.js';
import type { WooRegistration } from '../hooks/woocommerce-webhooks.js';
import { readPackageVersion } from '../sources/deadline.js';
import { formatUserAgent } from '../sources/index.js';
import type { CommandIo } from './io.js';

export interface HooksCommandOptions {
  config: string;
  platform?: HookPlatform;
  baseUrl?: string;
  adminUrl?: string;
  register: boolean;
  json: boolean;
}

const REBUILD_VARIABLES = 'AGENT_CATALOG_REBUILD_URL (and AGENT_CATALOG_REBUILD_TOKEN for a GitHub dispatch)';

const SECRET_ORIGIN: Readonly<Record<HookPlatform, string>> = {
  shopify:
    "your app's client secret (webhooks created with --register or the Admin API), or the key Shopify admin shows under Settings > Notifications > Webhooks",
  woocommerce: 'the Secret of each webhook under WooCommerce > Settings > Advanced > Webhooks',
};

function isSet(io: CommandIo, name: string): boolean {
  const value = io.env[name];
  return value !== undefined && value.trim() !== '';
}

function formatPlan(plan: HookPlan, io: CommandIo): string {
  const name = plan.platform === 'shopify' ? 'Shopify' : 'WooCommerce';
  const here = isSet(io, plan.secretVariable) ? 'set in this shell' : 'not set in this shell';
  return [
    `${name} webhooks for this catalog`,
    `  delivery URL  ${plan.url}`,
    `  topics        ${plan.topics.join(', ')}`,
    '  format        JSON',
    `  secret        ${plan.secretVariable} in the host's environment (${here}): ${SECRET_ORIGIN[plan.platform]}`,
    `  rebuild       ${REBUILD_VARIABLES} in the host's environment`,
    '',
  ].join('\n');
}

function formatRegistrations(registrations: readonly (Registration | WooRegistration)[]): string {
  const width = Math.max(...registrations.map((item) => item.topic.length));
  const lines = registrations.map((item) => {
    const inactive =
      'inactive' in item && item.inactive !== undefined
        ? ` (${item.inactive}: activate it in the store)`
        : '';
    return `  ${item.topic.padEnd(width)}  ${item.status === 'created' ? 'subscribed now' : 'already subscribed'}${inactive}`;
  });
  return `${lines.join('\n')}\n`;
}

export async function runHooks(options: HooksCommandOptions, io: CommandIo): Promise<number> {
  try {
    const config = await resolveConfigSources({
      configPath: options.config,
      cwd: io.cwd,
      env: io.env,
      flags: options.baseUrl !== undefined ? { base_url: options.baseUrl } : {},
    });
    const plan = planHooks(config, options.platform);
    const registrations = options.register
      ? await registerHooks({
          plan,
          env: io.env,
          adminUrl: options.adminUrl,
          userAgent: formatUserAgent(await readPackageVersion(), config.site_url),
        })
      : undefined;
    if (options.json) {
      const summary = {
        platform: plan.platform,
        url: plan.url,
        topics: plan.topics,
        format: 'json',
        secret_variable: plan.secretVariable,
        secret_set: isSet(io, plan.secretVariable),
        ...(registrations ? { registered: registrations } : {}),
      };
      io.stdout.write(`${JSON.stringify(summary)}\n`);
    } else {
      io.stdout.write(formatPlan(plan, io));
      if (registrations) io.stdout.write(formatRegistrations(registrations));
    }
    return 0;
  } catch (error) {
    io.stderr.write(`agent-catalog hooks: ${describeErrorChain(error).join(': ')}\n`);
    return exitStatusFor(error);
  }
}
