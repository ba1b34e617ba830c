/**
 * The gate's check of the UCP business profile (`/.well-known/ucp`, when the bundle has
 * one): valid against the release's own `business_profile` schema (vendored under
 * `vendor/ucp-2026-04-08/`, so the check runs offline), naming both catalog capabilities,
 * an `mcp` and a `rest` endpoint of `dev.ucp.shopping`, and agreeing with the live
 * handler's manifest on where those endpoints are mounted.
 */
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import formatsModule from 'ajv-formats';
import { LIVE_DIR, type LiveManifest, MANIFEST_PATH } from '../../live/live-files.js';
import { LOOKUP_CAPABILITY, SEARCH_CAPABILITY } from '../../live/ucp-types.js';
import profileSchema from '../../vendor/ucp-2026-04-08/source/discovery/profile_schema.json' with {
  type: 'json',
};
import capabilitySchema from '../../vendor/ucp-2026-04-08/source/schemas/capability.json' with {
  type: 'json',
};
import paymentHandlerSchema from '../../vendor/ucp-2026-04-08/source/schemas/payment_handler.json' with {
  type: 'json',
};
import serviceSchema from '../../vendor/ucp-2026-04-08/source/schemas/service.json' with { type: 'json' };
import availableInstrumentSchema from '../../vendor/ucp-2026-04-08/source/schemas/shopping/types/available_payment_instrument.json' with {
  type: 'json',
};
import reverseDomainNameSchema from '../../vendor/ucp-2026-04-08/source/schemas/shopping/types/reverse_domain_name.json' with {
  type: 'json',
};
import embeddedConfigSchema from '../../vendor/ucp-2026-04-08/source/schemas/transports/embedded_config.json' with {
  type: 'json',
};
import ucpSchema from '../../vendor/ucp-2026-04-08/source/schemas/ucp.json' with { type: 'json' };
import { isRecord, parseJson } from './bundle-layout.js';
import type { BundleFiles, Problem } from './problem.js';

export const UCP_PROFILE_FILE = '.well-known/ucp.json';

const PROFILE_SCHEMA_ID = 'https://ucp.dev/discovery/profile.json';
let compiled: ValidateFunction | undefined;

function compileBusinessProfile(): ValidateFunction {
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false });
  formatsModule.default(ajv, ['uri']);
  for (const schema of [
    ucpSchema,
    serviceSchema,
    capabilitySchema,
    paymentHandlerSchema,
    availableInstrumentSchema,
    reverseDomainNameSchema,
    embeddedConfigSchema,
  ]) {
    ajv.addSchema(schema);
  }
  // The release publishes the profile schema as https://ucp.dev/schemas/discovery/profile.json
  // but refers from it to "../schemas/ucp.json", which resolves only from one level up (where
  // ucp.dev serves it); it is loaded under that base so its references find the schemas.
  ajv.addSchema({ ...profileSchema, $id: PROFILE_SCHEMA_ID });
  const validate = ajv.getSchema(`${PROFILE_SCHEMA_ID}#/$defs/business_profile`);
  if (validate === undefined) throw new TypeError('the vendored UCP profile schema has no business_profile');
  return validate;
}

interface ServiceEntry {
  transport?: unknown;
  endpoint?: unknown;
}

export function checkUcpProfile(files: BundleFiles): Problem[] {
  const parsed = parseJson(files, UCP_PROFILE_FILE);
  if (parsed === undefined || !parsed.ok) return [];
  const problems: Problem[] = [];
  const report = (message: string) => problems.push({ path: UCP_PROFILE_FILE, rule: 'ucp-profile', message });
  compiled ??= compileBusinessProfile();
  if (!compiled(parsed.value)) {
    for (const error of compiled.errors?.slice(0, 10) ?? []) {
      report(`${error.instancePath || '(root)'} ${error.message ?? 'is invalid'} (UCP business_profile)`);
    }
    return problems;
  }
  const ucp = isRecord(parsed.value) && isRecord(parsed.value.ucp) ? parsed.value.ucp : {};
  const capabilities = isRecord(ucp.capabilities) ? ucp.capabilities : {};
  for (const name of [SEARCH_CAPABILITY, LOOKUP_CAPABILITY]) {
    if (!Array.isArray(capabilities[name])) report(`capabilities lacks ${name}`);
  }
  const services = isRecord(ucp.services) ? ucp.services['dev.ucp.shopping'] : undefined;
  const entries: ServiceEntry[] = Array.isArray(services) ? services.filter(isRecord) : [];
  const endpointOf = (transport: string) =>
    entries.find((entry) => entry.transport === transport)?.endpoint as string | undefined;
  checkEndpoints(files, { mcp: endpointOf('mcp'), rest: endpointOf('rest') }, report);
  return problems;
}

function checkEndpoints(
  files: BundleFiles,
  endpoints: { mcp: string | undefined; rest: string | undefined },
  report: (message: string) => void,
): void {
  if (endpoints.mcp === undefined || endpoints.rest === undefined) {
    report('dev.ucp.shopping needs an "mcp" and a "rest" service with their endpoints');
    return;
  }
  const manifest = parseJson(files, MANIFEST_PATH);
  // A bundle read from a live site has no `_live/` files to compare with.
  if (manifest === undefined || !manifest.ok || !isRecord(manifest.value)) {
    if ([...files.keys()].some((path) => path.startsWith(`${LIVE_DIR}/`)))
      report(`${MANIFEST_PATH} is unreadable`);
    return;
  }
  const { base_path: basePath, site_url: siteUrl } = manifest.value as unknown as LiveManifest;
  const expected = { mcp: `${siteUrl}${basePath}/mcp`, rest: `${siteUrl}${basePath}/ucp` };
  for (const transport of ['mcp', 'rest'] as const) {
    if (endpoints[transport] !== expected[transport]) {
      report(
        `the ${transport} endpoint ${endpoints[transport]} is not where the live handler answers (${expected[transport]})`,
      );
    }
  }
}
