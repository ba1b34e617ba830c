/**
 * Text hygiene at one point: every string an upstream adapter reads is cleaned here,
 * before mapping, so every document built from the plan carries the same text. Without
 * this, the XML feed (which must drop what XML 1.0 cannot carry) and the Markdown
 * documents would say "Spicy ginger kick" while the JSON catalog said "Spicy ginger\b
 * kick". Removed, by class:
 * - C0 controls except tab, line feed and carriage return (U+0000–U+0008, U+000B,
 *   U+000C, U+000E–U+001F): XML 1.0 section 2.2 has no Char for them, so no format here
 *   can carry all of them; tab and line ends stay, every format here allows them;
 * - DEL and the C1 controls (U+007F–U+009F): invisible, and XML 1.0 section 2.2
 *   discourages them;
 * - the bidirectional embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069):
 *   they reorder the text around them ("Trojan Source", CVE-2021-42574) and carry no
 *   content; the marks U+200E, U+200F and U+061C stay, they are part of right-to-left
 *   writing;
 * - U+FFFE, U+FFFF and lone surrogates: not characters at all (XML 1.0 forbids them).
 */

const UNWANTED =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: removing control characters is the point
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069\uFFFE\uFFFF\uD800-\uDFFF]/gu;
const UNWANTED_ONE = new RegExp(UNWANTED.source, 'u');

/** The text without the characters listed above; the same string when there are none. */
export function cleanText(text: string): string {
  return UNWANTED_ONE.test(text) ? text.replace(UNWANTED, '') : text;
}

/** True when `cleanText` would change the text. */
export function hasUnwantedCharacters(text: string): boolean {
  return UNWANTED_ONE.test(text);
}

/**
 * Parsed JSON with every string (and object key) cleaned; other values as they are. An
 * array or object is copied only when something inside it changes: nearly all upstream
 * text is clean, and copying every product's whole tree was most of this stage's garbage.
 */
export function cleanDeep(value: unknown): unknown {
  if (typeof value === 'string') return cleanText(value);
  if (typeof value !== 'object' || value === null) return value;
  return Array.isArray(value) ? cleanArray(value) : cleanObject(value as Record<string, unknown>);
}

function cleanArray(value: readonly unknown[]): readonly unknown[] {
  let copy: unknown[] | undefined;
  for (let index = 0; index < value.length; index++) {
    const item = value[index];
    const cleaned = cleanDeep(item);
    if (copy === undefined && cleaned !== item) copy = value.slice(0, index);
    copy?.push(cleaned);
  }
  return copy ?? value;
}

function cleanObject(value: Record<string, unknown>): Record<string, unknown> {
  const entries = Object.entries(value);
  let copy: Record<string, unknown> | undefined;
  for (const [index, [key, item]] of entries.entries()) {
    const cleanKey = cleanText(key);
    const cleaned = cleanDeep(item);
    // A "__proto__" key is always copied the way it always was (an assignment), so
    // the result is what the plain copy gave in every case.
    if (copy === undefined && (cleaned !== item || cleanKey !== key || key === '__proto__')) {
      copy = {};
      for (const [earlierKey, earlier] of entries.slice(0, index)) copy[earlierKey] = earlier;
    }
    if (copy !== undefined) copy[cleanKey] = cleaned;
  }
  return copy ?? value;
}

/** The path (`merchant.name`) of the first string of parsed JSON holding a character `cleanText` removes. */
export function findUnwantedText(value: unknown, path: readonly string[] = []): string | undefined {
  if (typeof value === 'string') return hasUnwantedCharacters(value) ? path.join('.') || '(root)' : undefined;
  if (typeof value !== 'object' || value === null) return undefined;
  for (const [key, item] of Object.entries(value)) {
    const found = findUnwantedText(item, [...path, key]);
    if (found !== undefined) return found;
  }
  return undefined;
}
