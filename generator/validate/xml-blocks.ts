/**
 * The text of every `<tag>…</tag>` block of an XML document, scanned without building its
 * tree: from one text, or from a document read a piece at a time (`documentTexts`), so a
 * 100,000-product feed or sitemap is never one string, nor one array of its items. The
 * well-formedness of the document is its own checker's to judge.
 */

/** The text of every `<tag>…</tag>` block, in order. */
export function* blocks(body: string, tag: string): Generator<string> {
  yield* blocksOfTexts([body], tag);
}

/**
 * The blocks `blocks` finds in the pieces joined, found piece by piece: only the text after
 * the last whole block is carried to the next piece (a block cut between two pieces, or the
 * start of its opening tag).
 */
export function* blocksOfTexts(texts: Iterable<string>, tag: string): Generator<string> {
  const open = `<${tag}>`;
  const close = `</${tag}>`;
  let rest = '';
  for (const piece of texts) {
    const text = rest + piece;
    let from = 0;
    for (;;) {
      const start = text.indexOf(open, from);
      if (start < 0) {
        // The text's end may be the start of an opening tag the next piece finishes.
        from = Math.max(from, text.length - open.length + 1);
        break;
      }
      const end = text.indexOf(close, start + open.length);
      if (end < 0) {
        from = start;
        break;
      }
      yield text.slice(start + open.length, end);
      from = end + close.length;
    }
    rest = text.slice(from);
  }
}
