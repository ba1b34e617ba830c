/**
 * How the live search reads text: the same steps for a product's fields at build time and
 * for an agent's query at the edge, so a word matches whichever side it came from.
 * Compatibility forms and diacritics fold (NFKD, marks dropped: "Açaí" is "acai"), case
 * folds, anything but letters and digits separates words, and a plain English plural
 * stems to its singular ("lemons", "cherries", "boxes"), cheap and predictable rather
 * than a full stemmer.
 */

const MARKS = /\p{M}+/gu;
const SEPARATORS = /[^\p{L}\p{N}]+/u;
/** Any UTF-16 unit past ASCII: text without one needs no Unicode folding. */
const BEYOND_ASCII = /[\u0080-\uffff]/;
/**
 * ASCII text is its own NFKD form and has no marks, and its only letters and digits are
 * a-z, A-Z and 0-9: once lower-cased, these are its separators, and a plain regular
 * expression splits it about three times faster than the Unicode folding (most catalogs' text is
 * ASCII, and the index tokenises every field of every product).
 */
const ASCII_SEPARATORS = /[^a-z0-9]+/;

/** The words of a text, normalised and stemmed, in order (repeats kept: they count). */
export function tokenise(text: string): string[] {
  const words = BEYOND_ASCII.test(text)
    ? text.normalize('NFKD').replace(MARKS, '').toLowerCase().split(SEPARATORS)
    : text.toLowerCase().split(ASCII_SEPARATORS);
  const tokens: string[] = [];
  for (const word of words) if (word !== '') tokens.push(stem(word));
  return tokens;
}

/** Singular of a regular English plural; other words unchanged. */
export function stem(word: string): string {
  if (word.length <= 3 || !word.endsWith('s')) return word;
  if (word.endsWith('ies') && word.length > 4) return `${word.slice(0, -3)}y`;
  if (/(?:ss|us|is)$/.test(word)) return word;
  if (/(?:sh|ch|x|z)es$/.test(word)) return word.slice(0, -2);
  return word.slice(0, -1);
}
