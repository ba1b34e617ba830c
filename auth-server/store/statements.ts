/**
 * Statements for the issuer's hot paths (refresh, userinfo, client authentication), written
 * once as SQL text and executed with fresh parameters. Kysely's builder costs 5–11% of the
 * server's CPU when it rebuilds and recompiles the same query on every request
 * (BENCHMARKS.md); these skip it. The text is portable SQL with `?` placeholders, turned
 * into PostgreSQL's `$1, $2, …` once, when the statement is defined. Results still pass
 * through the Kysely instance's plugins, so snake_case columns come back camelCase.
 */
import { CompiledQuery, type Kysely, type QueryResult } from 'kysely';
import type { IssuerDatabase } from './schema.js';

export type Dialect = 'sqlite' | 'postgres';
type Parameter = string | number | null;

export interface Statement<Row> {
  readonly sql: string;
  /** Runs the statement on `db` (the store's Kysely instance or one of its transactions). */
  run(db: Kysely<IssuerDatabase>, parameters: readonly Parameter[]): Promise<QueryResult<Row>>;
}

function numberPlaceholders(text: string): string {
  let index = 0;
  return text.replace(/\?/g, () => `$${++index}`);
}

/** Defines a statement for `dialect`; `text` must not contain a literal `?` other than placeholders. */
export function defineStatement<Row>(dialect: Dialect, text: string): Statement<Row> {
  const sql = dialect === 'postgres' ? numberPlaceholders(text) : text;
  const expected = (text.match(/\?/g) ?? []).length;
  return {
    sql,
    run(db, parameters) {
      if (parameters.length !== expected) {
        throw new TypeError(`statement expects ${expected} parameters, got ${parameters.length}`);
      }
      return db.executeQuery<Row>(CompiledQuery.raw(sql, [...parameters]));
    },
  };
}

/** SQLite answers a boolean expression with 0 or 1, PostgreSQL with a boolean. */
export function readFlag(value: unknown): boolean {
  return value === true || value === 1 || value === '1';
}
