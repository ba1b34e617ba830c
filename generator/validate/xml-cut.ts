/**
 * An XML document read a piece at a time as the elements at one path (a feed's
 * `rss > channel > item`), each cut out whole with the line it starts on, and the frame:
 * the document without them. A real parser then judges and parses each element alone and
 * the frame alone, so a document past the longest string V8 makes (a feed of 1,000,000
 * products) is still checked whole, one element at a time. The document is well-formed
 * exactly when the frame and every element are, since each element sits whole in the
 * frame's content. The cutter only finds where each piece of markup starts and ends (tags,
 * comments, CDATA sections, processing instructions, the DOCTYPE), as a parser's tokenizer
 * does: a CDATA section or comment that holds `</item>` does not end an item. It unescapes
 * nothing and judges nothing; what it cannot make sense of goes to the frame or the element
 * as text, for the parser to refuse.
 */

/** One element cut from the document: its text, start tag to end tag, and the 1-based line and column it starts at. */
export interface CutElement {
  text: string;
  line: number;
  column: number;
}

/** The longest markup start that decides its kind (`<![CDATA[`): a shorter rest of a piece waits for the next. */
const LONGEST_OPENER = 9;

/** Where the markup at `at` ends (the index after it), or -1 when the text ends first. */
function markupEnd(text: string, at: number): number {
  const after = (close: string, from: number) => {
    const found = text.indexOf(close, from);
    return found < 0 ? -1 : found + close.length;
  };
  if (text.startsWith('<!--', at)) return after('-->', at + 4);
  if (text.startsWith('<![CDATA[', at)) return after(']]>', at + 9);
  if (text.startsWith('<?', at)) return after('?>', at + 2);
  // A tag (its quoted attribute values may hold `>`) or a declaration (its internal subset may too).
  let quote = '';
  let brackets = 0;
  for (let index = at + 1; index < text.length; index += 1) {
    const char = text[index];
    if (quote !== '') {
      if (char === quote) quote = '';
    } else if (char === '"' || char === "'") quote = char;
    else if (char === '[' && text[at + 1] === '!') brackets += 1;
    else if (char === ']' && brackets > 0) brackets -= 1;
    else if (char === '>' && brackets === 0) return index + 1;
  }
  return -1;
}

function linesIn(text: string): number {
  let count = 0;
  for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n', at + 1)) count += 1;
  return count;
}

export class XmlCutter {
  readonly #parent: string;
  readonly #name: string;
  /** The names of the frame's open elements, joined by `>`. */
  #open: string[] = [];
  #frame: string[] = [];
  #frameLine = 1;
  #line = 1;
  #column = 1;
  #doctype = '';
  /** Per run of cut elements (and the white space between them): its frame line and the document lines cut so far. */
  #cuts: [frameLine: number, linesCut: number][] = [];
  #linesCut = 0;
  #element: { parts: string[]; depth: number; line: number; column: number } | undefined;
  /** The frame met only white space since the last element was cut. */
  #afterCut = false;

  /** `path`: the names from the root to the elements cut, e.g. `['rss', 'channel', 'item']`. */
  constructor(path: readonly string[]) {
    this.#parent = path.slice(0, -1).join('>');
    this.#name = path.at(-1) ?? '';
  }

  /** The elements, in order, as the document's pieces are read; the frame is whole once they are all read. */
  *elements(texts: Iterable<string>): Generator<CutElement> {
    let rest = '';
    // The pieces, then undefined for the document's end.
    for (const piece of this.#pieces(texts)) {
      const last = piece === undefined;
      const text = rest + (piece ?? '');
      let at = 0;
      while (at < text.length) {
        const open = text.indexOf('<', at);
        if (open !== at) {
          const stop = open < 0 ? text.length : open;
          yield* this.#take(text.slice(at, stop), 'text');
          at = stop;
          continue;
        }
        const close = last || text.length - at >= LONGEST_OPENER ? markupEnd(text, at) : -1;
        if (close < 0) break;
        yield* this.#take(text.slice(at, close), 'markup');
        at = close;
      }
      rest = text.slice(at);
      // The document ends inside a piece of markup: it is text, for the parser to refuse.
      if (last && rest !== '') yield* this.#take(rest, 'text');
    }
    if (this.#element !== undefined) {
      // An element the document never closes: its text goes to the parser to say so.
      const { parts, line, column } = this.#element;
      this.#element = undefined;
      yield { text: parts.join(''), line, column };
    }
  }

  *#pieces(texts: Iterable<string>): Generator<string | undefined> {
    yield* texts;
    yield undefined;
  }

  /** The document without the elements cut. */
  get frame(): string {
    return this.#frame.join('');
  }

  /** The document's DOCTYPE declaration, empty when it has none: the entities it declares are the elements' too. */
  get doctype(): string {
    return this.#doctype;
  }

  /** The document's line of a line of the frame (exact but on a line where elements were cut). */
  documentLine(frameLine: number): number {
    let cut = 0;
    for (const [line, lines] of this.#cuts) if (line <= frameLine) cut = lines;
    return frameLine + cut;
  }

  *#take(token: string, kind: 'text' | 'markup'): Generator<CutElement> {
    const line = this.#line;
    const column = this.#column;
    const breaks = linesIn(token);
    this.#line += breaks;
    this.#column = breaks === 0 ? column + token.length : token.length - token.lastIndexOf('\n');
    const element = this.#element;
    if (element !== undefined) {
      element.parts.push(token);
      if (kind === 'markup') element.depth += depthChange(token);
      if (element.depth > 0) return;
      this.#element = undefined;
      const text = element.parts.join('');
      this.#cutLines(linesIn(text));
      yield { text, line: element.line, column: element.column };
      return;
    }
    const atParent = this.#open.join('>') === this.#parent;
    if (kind === 'text' && atParent && this.#afterCut && token.trim() === '') {
      this.#cutLines(linesIn(token));
      return;
    }
    if (kind === 'markup' && atParent && tagName(token) === this.#name && token[1] !== '/') {
      const depth = depthChange(token);
      if (depth === 0) {
        this.#cutLines(linesIn(token));
        yield { text: token, line, column };
      } else this.#element = { parts: [token], depth, line, column };
      return;
    }
    this.#afterCut = false;
    this.#frame.push(token);
    this.#frameLine += linesIn(token);
    if (kind !== 'markup') return;
    if (token.startsWith('<!DOCTYPE') && this.#open.length === 0) this.#doctype = token;
    const change = depthChange(token);
    if (change > 0) this.#open.push(tagName(token));
    else if (change < 0) this.#open.pop();
  }

  #cutLines(lines: number): void {
    this.#afterCut = true;
    this.#linesCut += lines;
    const last = this.#cuts.at(-1);
    if (last !== undefined && last[0] === this.#frameLine) last[1] = this.#linesCut;
    else this.#cuts.push([this.#frameLine, this.#linesCut]);
  }
}

/** The name of a start or end tag; empty for other markup. */
function tagName(token: string): string {
  if (/^<[!?]/.test(token)) return '';
  return /^<\/?\s*([^\s/>]+)/.exec(token)?.[1] ?? '';
}

/** 1 for a start tag, -1 for an end tag, 0 for an empty-element tag or other markup. */
function depthChange(token: string): number {
  if (/^<[!?]/.test(token)) return 0;
  if (token.startsWith('</')) return -1;
  return token.endsWith('/>') ? 0 : 1;
}
