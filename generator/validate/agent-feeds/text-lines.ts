/**
 * A JSON Lines document read a line at a time: splitting a feed of 100,000 products whole
 * makes an array of every line beside the text, where the checkers need one line at once.
 */
/** Each line of a text with its 1-based number, without splitting the whole text at once. */
export function* textLines(text: string): Generator<[line: string, number: number]> {
  let from = 0;
  for (let number = 1; from <= text.length; number += 1) {
    const end = text.indexOf('\n', from);
    const to = end < 0 ? text.length : end;
    yield [text.slice(from, to), number];
    from = to + 1;
  }
}
