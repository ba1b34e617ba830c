/**
 * How the agent feeds' plain-text fields (OpenAI's `title` and `description`) carry angle
 * brackets. They are text, never HTML: the store's HTML was converted to text before the
 * record was written, so a `<` left in them is one the store meant as a character (a
 * description saying "switch to <raw> mode"). Written as is, a platform that strips or
 * renders tags in a plain-text field (as many do) would read `<raw>` as an HTML tag and
 * drop it. So a `<` that would open markup is written as `‹` (U+2039) and the `>` closing
 * it as `›` (U+203A): `‹raw›` reads the same to a person and is no tag to any reader.
 * "Would open markup" is the HTML tokenizer's own test (WHATWG HTML, 13.2.5.6 "Tag open
 * state": a `<` followed by an ASCII letter, `/`, `!` or `?`); every other `<` is text to
 * an HTML reader too and stays (`x < 5 mm`, `<3`, `<= 2 A`). Nothing is escaped or removed:
 * no entity appears, and the words are all kept.
 */

/** `<` that an HTML reader would take for the start of a tag, and the rest of that would-be tag. */
const TAG_LIKE = /<([A-Za-z/!?][^<>]*)(>?)/g;

export function neutraliseAngleBrackets(text: string): string {
  if (!text.includes('<')) return text;
  return text.replace(
    TAG_LIKE,
    (_match, inner: string, close: string) => `‹${inner}${close === '' ? '' : '›'}`,
  );
}
