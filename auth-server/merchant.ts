/**
 * The merchant as the issuer's pages and mail present it: name, logo, accent colour, store
 * link, support contact, privacy and terms links. They come from the same catalog.config.json
 * the bundle is built from, so the merchant is described once; the issuer reads only the keys
 * it needs with its own small schema (it never imports the generator) and ignores the rest.
 * The optional `issuer` section holds what only the issuer uses.
 */
import { readFile } from 'node:fs/promises';
import { z } from 'zod';

export interface MerchantIdentity {
  name: string;
  /** The store's website. */
  storeUrl: string;
  logoUrl?: string;
  /** `#rrggbb`; validated, so it can go into the page's stylesheet. */
  accentColor: string;
  /** An email address or a URL. */
  supportContact: string;
  privacyUrl?: string;
  termsUrl?: string;
  /**
   * Where the bundle mounts its catalog paths (`base_url`, else `site_url`, else
   * `merchant.url`, as the generator resolves it): the MCP endpoint below it is one of the
   * resources the issuer serves. Absent without a catalog config.
   */
  catalogBaseUrl?: string;
  /**
   * The site the bundle is published on (`site_url`, else `merchant.url`, without a trailing
   * slash, as the generator resolves it): its `/auth.md` is the agent guide the metadata's
   * `agent_auth.skill` names. Absent without a catalog config.
   */
  siteUrl?: string;
}

const httpUrl = z.url({ protocol: /^https?$/ });
const DEFAULT_ACCENT = '#1f5f3a';

const catalogConfigSubset = z.object({
  merchant: z.object({
    name: z.string().min(1).max(200),
    url: httpUrl,
    contact: z.string().min(3).max(320),
    logo_url: httpUrl.optional(),
  }),
  site_url: httpUrl.optional(),
  base_url: httpUrl.optional(),
  issuer: z
    .object({
      accent_color: z
        .string()
        .regex(/^#[0-9a-fA-F]{6}$/, 'expected a colour such as "#1f5f3a"')
        .optional(),
      support: z.string().min(3).max(320).optional(),
      privacy_url: httpUrl.optional(),
      terms_url: httpUrl.optional(),
    })
    .optional(),
});

/** Who the pages speak for when no catalog config is found (a newcomer's first run). */
export const NEUTRAL_MERCHANT: MerchantIdentity = {
  name: 'this store',
  storeUrl: '/',
  accentColor: DEFAULT_ACCENT,
  supportContact: 'the store that sent you here',
};

export class MerchantConfigError extends Error {
  readonly code = 'CONFIG_INVALID';
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'MerchantConfigError';
  }
}

/** The identity in a parsed catalog config; throws MerchantConfigError naming the field. */
export function merchantFromCatalogConfig(value: unknown, file: string): MerchantIdentity {
  const parsed = catalogConfigSubset.safeParse(value);
  if (!parsed.success) {
    const detail = parsed.error.issues.map((i) => `${i.path.join('.') || '(top)'}: ${i.message}`).join('; ');
    throw new MerchantConfigError(`invalid merchant identity in ${file}: ${detail}`);
  }
  const { merchant, site_url: siteUrl, base_url: baseUrl, issuer } = parsed.data;
  return {
    name: merchant.name,
    storeUrl: siteUrl ?? merchant.url,
    ...(merchant.logo_url ? { logoUrl: merchant.logo_url } : {}),
    accentColor: issuer?.accent_color ?? DEFAULT_ACCENT,
    supportContact: issuer?.support ?? merchant.contact,
    ...(issuer?.privacy_url ? { privacyUrl: issuer.privacy_url } : {}),
    ...(issuer?.terms_url ? { termsUrl: issuer.terms_url } : {}),
    catalogBaseUrl: (baseUrl ?? siteUrl ?? merchant.url).replace(/\/+$/, ''),
    siteUrl: (siteUrl ?? merchant.url).replace(/\/+$/, ''),
  };
}

/**
 * Reads the identity from `file`. A missing file at the default path gives the neutral
 * identity (`required` false); a missing file that was asked for, or a bad one, is an error.
 */
export async function loadMerchantIdentity(file: string, required: boolean): Promise<MerchantIdentity> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    const missing = error instanceof Error && 'code' in error && error.code === 'ENOENT';
    if (missing && !required) return NEUTRAL_MERCHANT;
    throw new MerchantConfigError(`cannot read the catalog config ${file}`, { cause: error });
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new MerchantConfigError(`${file} is not valid JSON`, { cause: error });
  }
  return merchantFromCatalogConfig(value, file);
}

/** Whether the support contact is an address to write to (else it is a URL to visit). */
export function supportHref(merchant: MerchantIdentity): string | undefined {
  if (/^[^@\s]+@[^@\s]+$/.test(merchant.supportContact)) return `mailto:${merchant.supportContact}`;
  return /^https?:\/\//.test(merchant.supportContact) ? merchant.supportContact : undefined;
}
