/**
 * The MCP tool `get_customer_profile`: the signed-in customer's name and e-mail address, as
 * the issuer's userinfo gives them. It is the one tool of the live handler that needs a
 * token (CONTRACT "Live paths"): the handler verifies the bearer token for the MCP endpoint
 * first (access-token/bearer-challenge.ts, scopes `openid profile email`), then this module asks
 * userinfo with that same token, so what the tool returns is exactly what the customer
 * allowed, and a revoked grant (which only the issuer knows about) is refused there.
 *
 * Web-standard `fetch` only; the caller passes it in, so tests and runtimes choose their own.
 */
import { userinfoEndpointOf } from '../../access-token/resource-urls.js';

export const CUSTOMER_PROFILE_TOOL = {
  name: 'get_customer_profile',
  title: 'Customer profile',
  description:
    "The signed-in customer's name and e-mail address at this store. Needs the customer's approval (OAuth, scopes openid, profile and email).",
  /**
   * What the access token must grant: `profile` and `email` for the two claims, and `openid`
   * because userinfo serves OpenID Connect tokens only (Core §5.3.1).
   */
  scopes: ['openid', 'profile', 'email'] as readonly string[],
  annotations: { readOnlyHint: true, openWorldHint: false },
  inputSchema: { type: 'object', properties: {}, additionalProperties: false },
  outputSchema: {
    type: 'object',
    properties: {
      name: { type: ['string', 'null'] },
      email: { type: ['string', 'null'] },
      email_verified: { type: 'boolean' },
    },
    required: ['name', 'email'],
  },
} as const;

export interface CustomerProfile {
  name: string | null;
  email: string | null;
  email_verified?: boolean;
}

/** Why the profile could not be read: the token was refused (`invalid_token`) or userinfo failed. */
export class CustomerProfileError extends Error {
  constructor(
    readonly code: 'invalid_token' | 'unavailable',
    message: string,
  ) {
    super(message);
    this.name = 'CustomerProfileError';
  }
}

export interface CustomerProfileInput {
  /** The bearer token the MCP request carried, already verified for this resource. */
  token: string;
  /** The issuer identifier (`auth_url`); userinfo is under it. */
  issuer: string;
  fetch: typeof fetch;
}

function textOrNull(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

/** Asks userinfo for the customer behind `token`; throws CustomerProfileError. */
export async function getCustomerProfile(input: CustomerProfileInput): Promise<CustomerProfile> {
  let response: Response;
  try {
    response = await input.fetch(userinfoEndpointOf(input.issuer), {
      headers: { authorization: `Bearer ${input.token}`, accept: 'application/json' },
    });
  } catch {
    throw new CustomerProfileError('unavailable', 'the account service could not be reached');
  }
  if (response.status === 401)
    throw new CustomerProfileError('invalid_token', 'the access token was refused');
  if (!response.ok)
    throw new CustomerProfileError('unavailable', `the account service answered ${response.status}`);
  const body: unknown = await response.json().catch(() => undefined);
  if (typeof body !== 'object' || body === null)
    throw new CustomerProfileError('unavailable', 'the account service answered without a profile');
  const claims = body as Record<string, unknown>;
  return {
    name: textOrNull(claims.name),
    email: textOrNull(claims.email),
    ...(typeof claims.email_verified === 'boolean' ? { email_verified: claims.email_verified } : {}),
  };
}

/** The MCP CallToolResult: the profile as structured content, mirrored as a JSON text block. */
export function customerProfileResult(profile: CustomerProfile) {
  return {
    structuredContent: { ...profile },
    content: [{ type: 'text' as const, text: JSON.stringify(profile) }],
  };
}
