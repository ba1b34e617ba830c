/**
 * What some document of the bundle strips, written here from XML 1.0 section 2.2 and
 * the Trojan Source advisory rather than taken from the code under test, and a walk over
 * every string and key of parsed JSON: together they find the JSON text that another
 * document would publish differently.
 */

/** C0 but tab/LF/CR, DEL and C1, bidi embeddings, overrides and isolates, U+FFFE and U+FFFF. */
export const STRIPPED_SOMEWHERE =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069\ufffe\uffff]/;

/** Every string and object key of parsed JSON. */
export function* stringsOf(value: unknown): Generator<string> {
  if (typeof value === 'string') yield value;
  else if (Array.isArray(value)) for (const item of value) yield* stringsOf(item);
  else if (typeof value === 'object' && value !== null) {
    for (const [key, item] of Object.entries(value)) {
      yield key;
      yield* stringsOf(item);
    }
  }
}

/** The strings of a JSON document that carry a character some other document strips. */
export function strippedStringsOf(json: string): string[] {
  return [...stringsOf(JSON.parse(json))].filter((text) => STRIPPED_SOMEWHERE.test(text));
}
