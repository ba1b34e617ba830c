/**
 * Customer password hashing with Node's scrypt, stored as a PHC-style string
 * (`$scrypt$ln=15,r=8,p=1$<salt>$<hash>`, base64 without padding) so the parameters can be
 * raised later without breaking existing hashes. Verification compares in constant time,
 * and an unknown email is checked against a dummy hash so the response time does not
 * reveal which accounts exist.
 */
import { randomBytes, type ScryptOptions, scrypt, timingSafeEqual } from 'node:crypto';

// N = 2^15, r = 8, p = 1: 32 MiB and tens of milliseconds per guess (OWASP's scrypt minimum
// is N = 2^17 with r = 8 on dedicated hardware; 2^15 keeps sign-in usable on 2 shared cores
// while staying far from cheap). maxmem must exceed 128 * N * r bytes.
const DEFAULT_LOG_N = 15;
const DEFAULT_R = 8;
const DEFAULT_P = 1;
const KEY_LENGTH = 32;
const SALT_LENGTH = 16;

function deriveKey(password: string, salt: Buffer, logN: number, r: number, p: number): Promise<Buffer> {
  const options: ScryptOptions = { N: 2 ** logN, r, p, maxmem: 256 * 2 ** logN * r };
  return new Promise((resolveKey, reject) => {
    scrypt(password.normalize('NFC'), salt, KEY_LENGTH, options, (error, key) => {
      if (error) reject(error);
      else resolveKey(key);
    });
  });
}

function encode(buffer: Buffer): string {
  return buffer.toString('base64').replace(/=+$/, '');
}

/** Hashes a password into a PHC-style string with a fresh random salt. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(SALT_LENGTH);
  const key = await deriveKey(password, salt, DEFAULT_LOG_N, DEFAULT_R, DEFAULT_P);
  return `$scrypt$ln=${DEFAULT_LOG_N},r=${DEFAULT_R},p=${DEFAULT_P}$${encode(salt)}$${encode(key)}`;
}

interface ParsedHash {
  logN: number;
  r: number;
  p: number;
  salt: Buffer;
  key: Buffer;
}

const PHC = /^\$scrypt\$ln=(\d{1,2}),r=(\d{1,2}),p=(\d{1,2})\$([A-Za-z0-9+/]+)\$([A-Za-z0-9+/]+)$/;

function parseHash(stored: string): ParsedHash | undefined {
  const match = PHC.exec(stored);
  if (!match) return undefined;
  const [, logN, r, p, salt, key] = match;
  if (!logN || !r || !p || !salt || !key) return undefined;
  return {
    logN: Number(logN),
    r: Number(r),
    p: Number(p),
    salt: Buffer.from(salt, 'base64'),
    key: Buffer.from(key, 'base64'),
  };
}

/** True when `password` matches `stored`; malformed hashes never match. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parsed = parseHash(stored);
  if (!parsed || parsed.logN > 20) return false;
  const key = await deriveKey(password, parsed.salt, parsed.logN, parsed.r, parsed.p);
  return key.length === parsed.key.length && timingSafeEqual(key, parsed.key);
}

let dummyHash: Promise<string> | undefined;

/** Burns the same work as a real check, for sign-in attempts with an unknown email. */
export async function verifyAgainstDummy(password: string): Promise<false> {
  dummyHash ??= hashPassword('dummy password that never matches');
  await verifyPassword(password, await dummyHash);
  return false;
}
