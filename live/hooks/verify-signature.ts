/**
 * Verifies a webhook's signature: the base64 HMAC-SHA256 of the raw body under the shared
 * secret, as Shopify (`X-Shopify-Hmac-Sha256`) and WooCommerce (`X-WC-Webhook-Signature`)
 * both send it. The comparison is Web Crypto's `verify`, which recomputes the MAC and
 * compares it in constant time inside the runtime (workerd, Node), never a string compare
 * here. A header that is not base64 of 32 bytes is simply a failed verification.
 */

const encoder = new TextEncoder();
const SHA256_BYTES = 32;

/** The header's bytes, or undefined when it is not canonical base64 of a SHA-256 MAC. */
function decodeSignature(header: string): Uint8Array<ArrayBuffer> | undefined {
  const value = header.trim();
  if (!/^[A-Za-z0-9+/]{43}=$/.test(value)) return undefined;
  const binary = atob(value);
  const bytes = new Uint8Array(binary.length);
  for (let index = 0; index < binary.length; index += 1) bytes[index] = binary.charCodeAt(index);
  return bytes.byteLength === SHA256_BYTES ? bytes : undefined;
}

/** One imported key per secret: importing costs more than verifying a small body. */
const keys = new Map<string, Promise<CryptoKey>>();

function importKey(secret: string): Promise<CryptoKey> {
  let key = keys.get(secret);
  if (key === undefined) {
    key = crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, [
      'verify',
    ]);
    // A host has two secrets at most; the bound only matters if the environment changes under a warm instance.
    if (keys.size >= 4) keys.clear();
    keys.set(secret, key);
  }
  return key;
}

export async function verifyHmacSignature(
  secret: string,
  body: Uint8Array<ArrayBuffer>,
  header: string | null,
): Promise<boolean> {
  if (header === null) return false;
  const signature = decodeSignature(header);
  if (signature === undefined) return false;
  return crypto.subtle.verify('HMAC', await importKey(secret), signature, body);
}
