/**
 * What the issuer does about its private signing keys at rest, on start and on
 * `keys rewrap`. With a key-encryption key (AUTH_KEY_ENCRYPTION_KEY, or a file named by
 * --key-encryption-key-file), every clear key in the store is sealed at start, new keys
 * are sealed when made, and a key sealed under another key-encryption key stops the start
 * with a message naming both fingerprints. Without one, a store holding sealed keys cannot
 * be used, an https issuer (a real deployment) refuses to start, and an http one (a
 * developer's loopback issuer) starts with a loud warning. `keys rewrap` re-seals every key
 * under a new key-encryption key, so that key can be rotated (docs/issuer-security.md).
 */
import { readFile } from 'node:fs/promises';
import type { IssuerConfig } from './config.js';
import {
  isSealed,
  type KeyEncryptionKey,
  KeyProtectionError,
  openPrivateJwk,
  parseKeyEncryptionKey,
  sealedWith,
  sealPrivateJwk,
} from './key-sealing.js';
import type { Logger } from './logger.js';
import { refuseSharedFiles } from './store/file-modes.js';
import type { Store } from './store/store.js';

const HOW_TO_SET =
  'set AUTH_KEY_ENCRYPTION_KEY or --key-encryption-key-file (AUTH_KEY_ENCRYPTION_KEY_FILE); see docs/issuer-security.md';

/** Reads a key-encryption key from a file that only its owner may read. */
export async function readKeyEncryptionKeyFile(file: string): Promise<KeyEncryptionKey> {
  refuseSharedFiles([file], 'the key-encryption key file');
  return parseKeyEncryptionKey(await readFile(file, 'utf8'), file);
}

/** The configured key-encryption key, if any (from the variable or the file). */
export async function loadKeyEncryptionKey(
  config: Pick<IssuerConfig, 'keyEncryptionKey' | 'keyEncryptionKeyFile'>,
): Promise<KeyEncryptionKey | undefined> {
  if (config.keyEncryptionKey !== undefined)
    return parseKeyEncryptionKey(config.keyEncryptionKey, 'AUTH_KEY_ENCRYPTION_KEY');
  if (config.keyEncryptionKeyFile !== undefined) return readKeyEncryptionKeyFile(config.keyEncryptionKeyFile);
  return undefined;
}

export interface ProtectOptions {
  kek: KeyEncryptionKey | undefined;
  /** True for an https issuer: then the keys must be encrypted. */
  requireEncryption: boolean;
  logger: Logger;
}

/** Applies the rules above at start, before any key is made or used. */
export async function protectSigningKeys(store: Store, options: ProtectOptions): Promise<void> {
  const { kek, logger } = options;
  const rows = await store.listKeys();
  if (!kek) {
    const sealed = rows.find((row) => isSealed(row.privateJwk));
    if (sealed) await openPrivateJwk(sealed.privateJwk, undefined, sealed.kid); // throws KEYS_LOCKED
    if (options.requireEncryption) {
      throw new KeyProtectionError(
        'KEYS_UNPROTECTED',
        `an https issuer keeps its private signing keys encrypted at rest: ${HOW_TO_SET}`,
      );
    }
    logger.warn(
      'the private signing keys are stored UNENCRYPTED; acceptable for a loopback test issuer only',
      {
        fix: HOW_TO_SET,
      },
    );
    return;
  }
  let sealedNow = 0;
  for (const row of rows) {
    if (isSealed(row.privateJwk)) {
      await openPrivateJwk(row.privateJwk, kek, row.kid); // fails fast on the wrong key
      continue;
    }
    const sealed = await sealPrivateJwk(row.privateJwk, kek);
    if (await store.replacePrivateJwk(row.kid, row.privateJwk, sealed)) sealedNow++;
  }
  if (sealedNow > 0) logger.info('sealed clear signing keys', { keys: sealedNow, kek: kek.id });
}

/**
 * `keys rewrap`: re-seals every private key under `to`, opening each with `from` (or as clear
 * text when it is not sealed yet). Keys already under `to` are left alone, so an interrupted
 * run can simply be repeated. Returns how many keys were re-sealed.
 */
export async function rewrapSigningKeys(
  store: Store,
  from: KeyEncryptionKey | undefined,
  to: KeyEncryptionKey,
): Promise<number> {
  let changed = 0;
  for (const row of await store.listKeys()) {
    if (isSealed(row.privateJwk) && sealedWith(row.privateJwk) === to.id) continue;
    const clear = await openPrivateJwk(row.privateJwk, from, row.kid);
    const sealed = await sealPrivateJwk(clear, to);
    if (!(await store.replacePrivateJwk(row.kid, row.privateJwk, sealed))) {
      throw new KeyProtectionError(
        'KEYS_DAMAGED',
        `signing key ${row.kid} changed during the rewrap; run it again`,
      );
    }
    changed++;
  }
  return changed;
}
