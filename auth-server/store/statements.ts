/**
 * Statements for the issuer's hot paths (refresh, userinfo, client authentication), written
 * once as SQL text and executed with fresh parameters. Kysely's builder costs 5–11% of the
 * server's CPU when it rebuilds and recompiles the same query on every request
 * (BENCHMARKS.md); these skip it. The text is portable SQL with `?` placeholders (turned
 * into PostgreSQL's `$1, $2, …` once, when the statement is defined) and camelCase column
 * aliases, so rows need no mapping. On PostgreSQL they run as named prepared statements:
 * each connection parses and plans a statement once instead of on every request. On SQLite
 * they go through Kysely, whose driver keeps them compiled (open-store.ts).
 */
import { CompiledQuery, type Kysely } from 'kysely';
import type { IssuerDatabase } from './schema.js';

export type Dialect = 'sqlite' | 'postgres';
export type Parameter = string | number | null;

export interface Statement {
  /** The name PostgreSQL prepares it under. */
  readonly name: string;
  readonly sql: string;
  readonly parameterCount: number;
}

export interface StatementResult<Row> {
  rows: Row[];
  affectedRows: number;
}

export interface StatementRunner {
  run<Row>(statement: Statement, parameters: readonly Parameter[]): Promise<StatementResult<Row>>;
}

/** The part of a pg Pool used here (typed structurally: only open-store.ts imports pg). */
export interface PreparingPool {
  query(config: { name: string; text: string; values: Parameter[] }): Promise<{
    rows: unknown[];
    rowCount: number | null;
  }>;
}

function numberPlaceholders(text: string): string {
  let index = 0;
  return text.replace(/\?/g, () => `$${++index}`);
}

/** `text` must not contain a `?` other than its placeholders. */
export function defineStatement(dialect: Dialect, name: string, text: string): Statement {
  const sql = dialect === 'postgres' ? numberPlaceholders(text) : text;
  return { name: `issuer_${name}`, sql, parameterCount: (text.match(/\?/g) ?? []).length };
}

function checkArity(statement: Statement, parameters: readonly Parameter[]): void {
  if (parameters.length !== statement.parameterCount) {
    throw new TypeError(
      `${statement.name} expects ${statement.parameterCount} parameters, got ${parameters.length}`,
    );
  }
}

/** Runs statements through Kysely, without its plugins (the aliases are already camelCase). */
export function createKyselyRunner(db: Kysely<IssuerDatabase>): StatementRunner {
  const raw = db.withoutPlugins();
  return {
    async run<Row>(statement: Statement, parameters: readonly Parameter[]) {
      checkArity(statement, parameters);
      const result = await raw.executeQuery<Row>(CompiledQuery.raw(statement.sql, [...parameters]));
      return { rows: result.rows, affectedRows: Number(result.numAffectedRows ?? 0n) };
    },
  };
}

/** Runs statements as named prepared statements on a pg Pool. */
export function createPreparingRunner(pool: PreparingPool): StatementRunner {
  return {
    async run<Row>(statement: Statement, parameters: readonly Parameter[]) {
      checkArity(statement, parameters);
      const result = await pool.query({ name: statement.name, text: statement.sql, values: [...parameters] });
      return { rows: result.rows as Row[], affectedRows: result.rowCount ?? 0 };
    },
  };
}

/** SQLite answers a boolean expression with 0 or 1, PostgreSQL with a boolean. */
export function readFlag(value: unknown): boolean {
  return value === true || value === 1 || value === '1';
}
