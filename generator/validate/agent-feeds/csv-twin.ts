/**
 * A CSV shard of OpenAI's feed compared with its JSON Lines twin as both are read, never
 * held whole: byte for byte against the twin's rows as csv-stringify writes them (the
 * shard the build writes), or, for any other text, parsed by csv-parse record by record,
 * each record compared with the twin's next row and dropped.
 */
import { Parser } from 'csv-parse';
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import type { RowRecord } from './openai-rules.js';

/** A JSON Lines value as its CSV cell: lists comma-joined, an object as JSON text. */
export function cellText(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (Array.isArray(value)) return value.join(',');
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

/** A CSV shard read row by row (no row kept): how many rows, the first that differs from its JSON Lines twin, or why it is not CSV. */
export interface CsvReading {
  rows: number;
  /** 0-based; undefined when every row says what the twin's row says (or there is no twin). */
  mismatch?: number;
  error?: string;
}

/** Rows written by csv-stringify at once: one call per row costs more than the writing. */
const WRITTEN_ROWS = 256;

/**
 * Whether a CSV shard is, byte for byte, its header followed by the twin's rows written by
 * csv-stringify (the writer made to be read back by csv-parse, with its default quoting):
 * then csv-parse would read exactly the twin's cells back, and the shard need not be
 * parsed (csv-parse was a third of a cold gate's time). Anything else, a header that
 * would not make one record per row included, is parsed. The shard is read as the twin's
 * rows come (`accept`), WRITTEN_ROWS rows' cells at a time, so neither is ever held whole.
 */
export class WrittenTwin {
  readonly #texts: Iterator<string>;
  #pending = '';
  readonly #names: string[] | undefined;
  #cells: string[][] = [];
  #same: boolean;

  constructor(texts: Iterable<string>) {
    this.#texts = texts[Symbol.iterator]();
    this.#names = this.#header();
    this.#same = this.#names !== undefined;
  }

  /** The header's column names, when csv-stringify would write one record per row under it. */
  #header(): string[] | undefined {
    let end = this.#pending.indexOf('\n');
    while (end < 0) {
      if (!this.#read()) return undefined;
      end = this.#pending.indexOf('\n');
    }
    const line = this.#pending.slice(0, end + 1);
    this.#pending = this.#pending.slice(end + 1);
    let columns: unknown;
    try {
      [columns] = parse(line) as unknown[];
    } catch {
      return undefined;
    }
    // One column could write an empty line, which csv-parse skips; a repeated name loses a cell.
    if (!Array.isArray(columns) || columns.length < 2 || new Set(columns).size !== columns.length)
      return undefined;
    return columns.map(String);
  }

  #read(): boolean {
    const next = this.#texts.next();
    if (next.done === true) return false;
    this.#pending += next.value;
    return true;
  }

  accept(row: RowRecord): void {
    const names = this.#names;
    if (!this.#same || names === undefined) return;
    this.#cells.push(names.map((column) => cellText(row[column])));
    if (this.#cells.length >= WRITTEN_ROWS) this.#compare();
  }

  #compare(): void {
    const written = stringify(this.#cells, { record_delimiter: '\n' });
    this.#cells = [];
    while (this.#pending.length < written.length) if (!this.#read()) break;
    if (!this.#pending.startsWith(written)) this.#same = false;
    else this.#pending = this.#pending.slice(written.length);
  }

  /** True when the shard held exactly the rows accepted; it is then read to its end. */
  finish(): boolean {
    if (this.#same && this.#cells.length > 0) this.#compare();
    if (!this.#same || this.#pending !== '') return false;
    while (this.#read()) if (this.#pending !== '') return false;
    return true;
  }
}

/** A CSV shard parsed as it is read, each record compared with the twin's next row and dropped. */
export function readCsvRows(texts: Iterable<string>, twin: Iterator<RowRecord> | undefined): CsvReading {
  let rows = 0;
  let mismatch: number | undefined;
  const parser = new Parser({
    columns: true,
    skip_empty_lines: true,
    // With `columns`, each record is an object of cells by column name (typed as a list here).
    on_record: (record: object) => {
      const next = twin?.next();
      const row = next === undefined || next.done === true ? undefined : next.value;
      if (
        mismatch === undefined &&
        row !== undefined &&
        Object.entries(record).some(([column, cell]: [string, unknown]) => cellText(row[column]) !== cell)
      )
        mismatch = rows;
      rows += 1;
      return null;
    },
  });
  // Written to synchronously, the parser keeps its error in `errored` as well; this only
  // stops the 'error' event it emits later from ending the process.
  parser.on('error', () => undefined);
  for (const text of texts) {
    parser.write(text);
    if (parser.errored !== null) break;
  }
  if (parser.errored === null) parser.end();
  const error = parser.errored;
  // Not CSV: no rows, so nothing to compare.
  if (error !== null) return { rows: 0, error: error.message };
  return mismatch === undefined ? { rows } : { rows, mismatch };
}
