/**
 * A JSON value read back from bytes this tool wrote (a row of the build cache): undefined
 * when they do not parse, so the caller treats the row as missing and renders or reads
 * again instead of failing the build.
 */
export function parseJsonBytes(bytes: Buffer): unknown {
  try {
    return JSON.parse(bytes.toString('utf8'));
  } catch {
    return undefined;
  }
}
