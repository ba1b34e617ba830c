/**
 * Encryption of the private signing keys at rest (CWE-732, RFC 6819 §5.1.4.1.3): each
 * private JWK is stored as a compact JWE (RFC 7516) made by jose, never by hand: the key is
 * wrapped with AES-256 Key Wrap under the operator's key-encryption key (`A256KW`, RFC
 * 7518 §4.4) and the JWK itself encrypted with a fresh content key under AES-256-GCM
 * (`A256GCM`). The JWE header names the key-encryption key by a short fingerprint (`kid`),
 * so a wrong key is told apart from a damaged row, and the decrypted JWK must carry the
 * row's own kid, so sealed keys cannot be swapped between rows. A stored value that starts
 * with `{` is a clear JWK from before encryption was on. Like keys.ts, this module may
 * import jose; nothing else does.
 */
import { createHash } from 'node:crypto';
import { CompactEncrypt, compactDecrypt, decodeProtectedHeader } from 'jose';

/** A 256-bit key-encryption key and its public fingerprint. */
export interface KeyEncryptionKey {
  /** A fingerprint of the key (not the key), shown in messages and JWE headers. */
  readonly id: string;
  readonly bytes: Uint8Array;
}

export class KeyProtectionError extends Error {
  readonly code: 'KEYS_LOCKED' | 'KEYS_WRONG_KEK' | 'KEYS_DAMAGED' | 'KEK_INVALID' | 'KEYS_UNPROTECTED';
  constructor(code: KeyProtectionError['code'], message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'KeyProtectionError';
    this.code = code;
  }
}

const KEY_BYTES = 32;

/**
 * Reads a key-encryption key: 32 random bytes written in base64 or base64url (e.g. from
 * `openssl rand -base64 32`); `source` names where it came from for the error message.
 */
export function parseKeyEncryptionKey(text: string, source: string): KeyEncryptionKey {
  const trimmed = text.trim();
  const bytes = /^[A-Za-z0-9+/_-]+={0,2}$/.test(trimmed) ? Buffer.from(trimmed, 'base64') : Buffer.alloc(0);
  if (bytes.length !== KEY_BYTES) {
    throw new KeyProtectionError(
      'KEK_INVALID',
      `${source} must be ${KEY_BYTES} random bytes in base64 (make one with: openssl rand -base64 32)`,
    );
  }
  const id = createHash('sha256').update('agent-auth key-encryption key').update(bytes).digest('base64url');
  return { id: id.slice(0, 16), bytes: new Uint8Array(bytes) };
}

/** True when a stored private JWK is encrypted (a compact JWE rather than JSON). */
export function isSealed(stored: string): boolean {
  return !stored.trimStart().startsWith('{');
}

/** The fingerprint of the key-encryption key a sealed value names, if readable. */
export function sealedWith(stored: string): string | undefined {
  try {
    const kid = decodeProtectedHeader(stored).kid;
    return typeof kid === 'string' ? kid : undefined;
  } catch {
    return undefined;
  }
}

/** Encrypts a clear private JWK (JSON text) under `kek`. */
export function sealPrivateJwk(clearJson: string, kek: KeyEncryptionKey): Promise<string> {
  return new CompactEncrypt(new TextEncoder().encode(clearJson))
    .setProtectedHeader({ alg: 'A256KW', enc: 'A256GCM', kid: kek.id, cty: 'jwk+json' })
    .encrypt(kek.bytes);
}

/**
 * The clear private JWK (JSON text) of the signing key `kid`, from its stored form: as is
 * when clear, decrypted with `kek` when sealed. Throws KeyProtectionError when it is sealed
 * and no key, or another key, was given, or when it does not decrypt to this row's key.
 */
export async function openPrivateJwk(
  stored: string,
  kek: KeyEncryptionKey | undefined,
  kid: string,
): Promise<string> {
  if (!isSealed(stored)) return stored;
  const named = sealedWith(stored);
  if (!kek) {
    throw new KeyProtectionError(
      'KEYS_LOCKED',
      `signing key ${kid} is encrypted (key-encryption key ${named ?? 'unknown'}); start with that key in AUTH_KEY_ENCRYPTION_KEY or --key-encryption-key-file`,
    );
  }
  if (named !== kek.id) {
    throw new KeyProtectionError(
      'KEYS_WRONG_KEK',
      `signing key ${kid} was encrypted with key-encryption key ${named ?? 'unknown'}, not with the one given (${kek.id})`,
    );
  }
  let clear: string;
  try {
    const { plaintext } = await compactDecrypt(stored, kek.bytes, {
      keyManagementAlgorithms: ['A256KW'],
      contentEncryptionAlgorithms: ['A256GCM'],
    });
    clear = new TextDecoder().decode(plaintext);
  } catch (error) {
    throw new KeyProtectionError('KEYS_DAMAGED', `signing key ${kid} does not decrypt`, { cause: error });
  }
  const parsed: unknown = JSON.parse(clear);
  if (typeof parsed !== 'object' || parsed === null || !('kid' in parsed) || parsed.kid !== kid) {
    throw new KeyProtectionError(
      'KEYS_DAMAGED',
      `the sealed value stored for signing key ${kid} is another key`,
    );
  }
  return clear;
}
