/**
 * Fetching a Client ID Metadata Document, the issuer's one outbound HTTP request, with the
 * protections the CIMD draft (§8.6 SSRF, §8.7 response size) and RFC 9700 §4.16 ask for:
 *
 * - the address is checked where it is used: the connector resolves the name itself and
 *   refuses any answer that is not a public address (address-policy.ts), and checks the
 *   connected socket's peer again, so a name that re-resolves to 127.0.0.1 between a check
 *   and the connection (DNS rebinding) gets nowhere; IP literals are checked up front;
 * - redirects are refused, not followed (the draft: the document is at the client_id URL);
 * - the body is read up to `maxBytes` and the whole exchange bounded by `timeoutMs`;
 * - only a 200 `application/json` answer is a document.
 *
 * undici does the HTTP (one Agent, no connection reuse across hosts beyond its pool); this
 * module is its only importer on the issuer side. Failures are `ClientDocumentError`s with a
 * description fit to show a client; the route turns them into `invalid_client`.
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import type { LookupFunction, Socket } from 'node:net';
import { Agent, buildConnector, fetch } from 'undici';
import { isPublicAddress } from './address-policy.js';

export class ClientDocumentError extends Error {
  constructor(description: string, options?: { cause?: unknown }) {
    super(description, options);
    this.name = 'ClientDocumentError';
  }
}

export interface FetchPolicy {
  /** Let loopback addresses (and http on them) through: development and tests only. */
  allowLoopback: boolean;
  /** Largest body accepted, in bytes (the draft suggests 5 KB). */
  maxBytes: number;
  /** The whole fetch, connection to last byte, in milliseconds. */
  timeoutMs: number;
}

export interface FetchedDocument {
  /** The parsed JSON body. */
  value: unknown;
  /** The response's Cache-Control, for the caller's cache. */
  cacheControl: string | null;
}

class AddressRefusedError extends Error {
  readonly code = 'EADDRREFUSED_BY_POLICY';
}

/** A `lookup` for net.connect that answers only with addresses the policy allows. */
function guardedLookup(allowLoopback: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
      if (error) return callback(error, '', 0);
      // Any refused answer refuses the name: a name that points inside is not a client's.
      const refused = addresses.find((a) => !isPublicAddress(a.address, { allowLoopback }));
      if (refused || addresses.length === 0) {
        const why = new AddressRefusedError(`${hostname} resolves to a non-public address`);
        return callback(why, '', 0);
      }
      if (options.all) return (callback as (e: null, a: LookupAddress[]) => void)(null, addresses);
      const [first] = addresses;
      return callback(null, first?.address ?? '', first?.family ?? 4);
    });
  };
}

/** An undici Agent whose every connection went through the guarded lookup and a peer check. */
export function createGuardedAgent(policy: FetchPolicy): Agent {
  const connector = buildConnector({
    lookup: guardedLookup(policy.allowLoopback),
    timeout: policy.timeoutMs,
  });
  return new Agent({
    connect(options, callback) {
      connector(options, (error, socket) => {
        if (error || !socket) return callback(error ?? new Error('no socket'), null);
        // Belt and braces: whatever path led here, the peer must be an allowed address.
        const peer = (socket as Socket).remoteAddress ?? '';
        if (!isPublicAddress(peer, { allowLoopback: policy.allowLoopback })) {
          socket.destroy();
          return callback(new AddressRefusedError(`connected to a non-public address ${peer}`), null);
        }
        return callback(null, socket);
      });
    },
    headersTimeout: policy.timeoutMs,
    bodyTimeout: policy.timeoutMs,
    connections: 4,
    // Documents are fetched rarely; an idle socket should not outlive the request by much.
    keepAliveTimeout: 1000,
    keepAliveMaxTimeout: 1000,
  });
}

/** Reads at most `maxBytes` of the body; more is an error, and the rest is not downloaded. */
async function readLimited(body: AsyncIterable<Uint8Array> | null, maxBytes: number): Promise<string> {
  if (body === null) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  // Leaving the loop early cancels the stream, so an oversize body is not downloaded further.
  for await (const chunk of body) {
    size += chunk.byteLength;
    if (size > maxBytes)
      throw new ClientDocumentError(`the client metadata document is larger than ${maxBytes} bytes`);
    chunks.push(chunk);
  }
  return new TextDecoder('utf-8', { fatal: true }).decode(Buffer.concat(chunks));
}

function describeFailure(error: unknown): string {
  const cause = error instanceof Error && error.cause !== undefined ? error.cause : error;
  // One answer for a refused address and an unknown name: the issuer must not become an
  // oracle for which internal names exist.
  const code = cause instanceof Error && 'code' in cause ? String(cause.code) : '';
  if (cause instanceof AddressRefusedError || code === 'ENOTFOUND' || code === 'EAI_AGAIN')
    return 'the client_id host does not resolve to a public address';
  if (cause instanceof Error && /timeout|aborted/i.test(`${cause.name} ${cause.message}`))
    return 'the client metadata document did not arrive in time';
  if (error instanceof Error && error.name === 'TimeoutError')
    return 'the client metadata document did not arrive in time';
  return 'the client metadata document could not be fetched';
}

/** GETs the document at `url` under `policy`; throws ClientDocumentError. */
export async function fetchClientDocument(
  url: URL,
  agent: Agent,
  policy: FetchPolicy,
): Promise<FetchedDocument> {
  const signal = AbortSignal.timeout(policy.timeoutMs);
  let response: Awaited<ReturnType<typeof fetch>>;
  try {
    response = await fetch(url, {
      dispatcher: agent,
      redirect: 'manual',
      signal,
      headers: { accept: 'application/json' },
    });
  } catch (error) {
    throw new ClientDocumentError(describeFailure(error), { cause: error });
  }
  if (response.status >= 300 && response.status < 400) {
    await response.body?.cancel();
    throw new ClientDocumentError('the client metadata document URL redirects; redirects are not followed');
  }
  if (response.status !== 200) {
    await response.body?.cancel();
    throw new ClientDocumentError(`the client metadata document URL answered ${response.status}`);
  }
  const type = response.headers.get('content-type') ?? '';
  if (!/^application\/([a-z0-9.+-]*\+)?json\s*(;|$)/i.test(type)) {
    await response.body?.cancel();
    throw new ClientDocumentError('the client metadata document is not application/json');
  }
  const declared = Number(response.headers.get('content-length') ?? '0');
  if (declared > policy.maxBytes) {
    await response.body?.cancel();
    throw new ClientDocumentError(`the client metadata document is larger than ${policy.maxBytes} bytes`);
  }
  let text: string;
  try {
    text = await readLimited(response.body, policy.maxBytes);
  } catch (error) {
    if (error instanceof ClientDocumentError) throw error;
    throw new ClientDocumentError(describeFailure(error), { cause: error });
  }
  try {
    return { value: JSON.parse(text) as unknown, cacheControl: response.headers.get('cache-control') };
  } catch (error) {
    throw new ClientDocumentError('the client metadata document is not valid JSON', { cause: error });
  }
}
