/**
 * The packed shard: many small entries (product pages, UCP products, variant → product
 * pairs) in one file, so a million products do not become a million files, readable one
 * entry at a time. The file is text:
 *
 *     agent-catalog-pack 1 <table length>\n
 *     "<key>"\t<start>\t<length>\t<meta>\n      (one line per entry, keys sorted)
 *     …
 *     <the entries' bodies, one after another>
 *
 * Keys are JSON strings (so a key holds no tab or newline), `start` and `length` count
 * UTF-16 code units from the end of the table, and `meta` is a short string of the
 * writer's (a page's entity tag). A reader finds a key with one `indexOf` in the table and
 * slices its body: nothing is parsed but that one entry, whatever the shard holds.
 */

const MAGIC = 'agent-catalog-pack 1 ';

export interface PackEntry {
  key: string;
  body: string;
  /** No tab or newline; empty when the kind has none. */
  meta?: string;
}

export interface PackedEntry {
  body: string;
  meta: string;
}

export function packEntries(entries: readonly PackEntry[]): string {
  const sorted = [...entries].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  const lines: string[] = [];
  let start = 0;
  for (const { key, body, meta = '' } of sorted) {
    if (/[\t\n]/.test(meta)) throw new TypeError(`the meta of ${key} holds a tab or a newline`);
    lines.push(`${JSON.stringify(key)}\t${start}\t${body.length}\t${meta}\n`);
    start += body.length;
  }
  const table = lines.join('');
  return `${MAGIC}${table.length}\n${table}${sorted.map((entry) => entry.body).join('')}`;
}

/** Where the table starts (at the header's newline) and where the bodies start. */
function locateTable(text: string): { headerEnd: number; bodies: number } {
  const headerEnd = text.indexOf('\n');
  const tableLength = Number(text.slice(MAGIC.length, headerEnd));
  const bodies = headerEnd + 1 + tableLength;
  if (
    !text.startsWith(MAGIC) ||
    headerEnd < 0 ||
    !Number.isSafeInteger(tableLength) ||
    bodies > text.length
  ) {
    throw new TypeError('not a packed shard');
  }
  return { headerEnd, bodies };
}

/** Undefined when the shard has no such key; throws when the text is not a packed shard. */
export function readPackedEntry(text: string, key: string): PackedEntry | undefined {
  const { headerEnd, bodies } = locateTable(text);
  // From the header's newline, so the first line matches the same "\n<key>\t" as the rest.
  const table = text.slice(headerEnd, bodies);
  const found = table.indexOf(`\n${JSON.stringify(key)}\t`);
  if (found < 0) return undefined;
  const lineEnd = table.indexOf('\n', found + 1);
  const [, start, length, meta = ''] = table.slice(found + 1, lineEnd < 0 ? undefined : lineEnd).split('\t');
  const from = bodies + Number(start);
  const to = from + Number(length);
  if (!Number.isSafeInteger(from) || !Number.isSafeInteger(to) || to > text.length) {
    throw new TypeError(`the packed shard's entry for ${key} lies outside it`);
  }
  return { body: text.slice(from, to), meta };
}

/** Every entry of a shard, in key order (for the gate, which reads every page). */
export function readPackedEntries(text: string): (PackedEntry & { key: string })[] {
  const { headerEnd, bodies } = locateTable(text);
  const lines = text
    .slice(headerEnd + 1, bodies)
    .split('\n')
    .slice(0, -1);
  return lines.map((line) => {
    const [key = '""', start, length, meta = ''] = line.split('\t');
    const from = bodies + Number(start);
    return { key: JSON.parse(key) as string, body: text.slice(from, from + Number(length)), meta };
  });
}
