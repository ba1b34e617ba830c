/**
 * Random identifiers and their hashes. Every bearer secret the issuer hands out (session
 * ids, codes, refresh tokens, client secrets) is 256 random bits, base64url, and only its
 * SHA-256 is stored: a leaked database then yields no usable credential. SHA-256 rather
 * than a slow hash is right here because the inputs are random, not guessable.
 */
import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';

/** 256 random bits, base64url (43 characters). */
export function generateSecret(): string {
  return randomBytes(32).toString('base64url');
}

/** A random, non-secret identifier (client ids, grant ids, jti). */
export function generateId(): string {
  return randomUUID();
}

/** SHA-256 of `value`, base64url. */
export function hashSecret(value: string): string {
  return createHash('sha256').update(value, 'utf8').digest('base64url');
}

/** Constant-time comparison of two strings (via their SHA-256, so lengths may differ). */
export function secretsEqual(a: string, b: string): boolean {
  const left = createHash('sha256').update(a, 'utf8').digest();
  const right = createHash('sha256').update(b, 'utf8').digest();
  return timingSafeEqual(left, right);
}

/** RFC 7636 §4.6: BASE64URL(SHA256(ASCII(code_verifier))). */
export function computeS256Challenge(verifier: string): string {
  return createHash('sha256').update(verifier, 'ascii').digest('base64url');
}
