/**
 * `customers import <file.csv>`: invites every customer of a store's customer export. It
 * reads Shopify's export (First Name, Last Name, Email, Accepts Email Marketing, …) and
 * WooCommerce's (first_name, last_name, email or billing_email, …), matching column names
 * without regard to case, spaces or underscores. Each row is created and invited, skipped
 * (the address already has an account, or appeared earlier in this file: nobody is mailed
 * twice in one run) or rejected with its line number and reason. Rows are independent: one
 * bad row, or one failed delivery, does not stop the rest. Marketing consent is not
 * imported: an account is not a mailing list.
 */
import { readFile } from 'node:fs/promises';
import { parse } from 'csv-parse/sync';
import { CustomerInputError, normaliseEmail } from './customers.js';
import { forTerminal } from './display-text.js';
import { checkInvite, inviteCustomer } from './invitations.js';
import type { AccountMail } from './mail/account-mail.js';
import type { Store } from './store/store.js';

const EMAIL_COLUMNS = ['email', 'billingemail', 'emailaddress', 'useremail'];
const FIRST_COLUMNS = ['firstname', 'billingfirstname'];
const LAST_COLUMNS = ['lastname', 'billinglastname'];
const NAME_COLUMNS = ['name', 'displayname', 'fullname'];
const MAX_FILE_BYTES = 20 * 1024 * 1024;

export interface ImportRow {
  line: number;
  email: string;
  name: string;
}

export interface ImportReport {
  created: number;
  skipped: { line: number; email: string; reason: string }[];
  rejected: { line: number; reason: string }[];
}

const columnKey = (name: string) => name.toLowerCase().replace(/[\s_-]+/g, '');

function pick(record: Record<string, string>, keys: readonly string[]): string {
  for (const key of keys) {
    const value = record[key]?.trim();
    if (value) return value;
  }
  return '';
}

/** Parses the export into rows (line numbers count the header as line 1). Throws on a file that is not such a CSV. */
export function parseCustomerCsv(text: string, file: string): ImportRow[] {
  let records: Record<string, string>[];
  try {
    records = parse(text.replace(/^\uFEFF/, ''), {
      columns: (header: string[]) => header.map(columnKey),
      skip_empty_lines: true,
      relax_column_count: true,
      trim: true,
    });
  } catch (error) {
    throw new CustomerInputError(`${file} is not a readable CSV file`, { cause: error });
  }
  const first = records[0];
  if (first !== undefined && !EMAIL_COLUMNS.some((key) => key in first))
    throw new CustomerInputError(`${file} has no email column (expected "Email" or "billing_email")`);
  return records.map((record, index) => {
    const full = [pick(record, FIRST_COLUMNS), pick(record, LAST_COLUMNS)].filter(Boolean).join(' ');
    return { line: index + 2, email: pick(record, EMAIL_COLUMNS), name: full || pick(record, NAME_COLUMNS) };
  });
}

async function importRow(
  store: Store,
  mail: AccountMail,
  row: ImportRow,
  now: number,
  report: ImportReport,
): Promise<void> {
  const email = normaliseEmail(row.email);
  // A customer with no name on file is greeted by the part of the address before the @.
  const name = row.name || email.split('@')[0] || email;
  const problem = row.email === '' ? 'no email address' : checkInvite({ email, name });
  if (problem) {
    report.rejected.push({ line: row.line, reason: problem });
    return;
  }
  try {
    const outcome = await inviteCustomer(store, mail, { email, name }, now);
    if (outcome === 'created') report.created += 1;
    else report.skipped.push({ line: row.line, email, reason: 'already has an account' });
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    report.rejected.push({ line: row.line, reason: `invitation failed: ${reason}` });
  }
}

/** Reads `file` and invites each customer in it, one row at a time. */
export async function importCustomers(
  store: Store,
  mail: AccountMail,
  file: string,
  now: number,
): Promise<ImportReport> {
  const text = await readFile(file, 'utf8').catch((error: unknown) => {
    throw new CustomerInputError(`cannot read ${file}`, { cause: error });
  });
  if (Buffer.byteLength(text) > MAX_FILE_BYTES)
    throw new CustomerInputError(`${file} is larger than ${MAX_FILE_BYTES / 1024 / 1024} MiB`);
  const report: ImportReport = { created: 0, skipped: [], rejected: [] };
  const seen = new Set<string>();
  for (const row of parseCustomerCsv(text, file)) {
    const email = normaliseEmail(row.email);
    if (email !== '' && seen.has(email)) {
      report.skipped.push({ line: row.line, email, reason: 'appears earlier in this file' });
      continue;
    }
    if (email !== '') seen.add(email);
    await importRow(store, mail, row, now, report);
  }
  return report;
}

/** The lines `customers import` prints; what came from the file (or a mail server) is escaped. */
export function formatImportReport(report: ImportReport): string {
  const lines = [
    `created ${report.created}, skipped ${report.skipped.length}, rejected ${report.rejected.length}`,
    ...report.skipped.map(
      (s) => `skipped line ${s.line} (${forTerminal(s.email)}): ${forTerminal(s.reason)}`,
    ),
    ...report.rejected.map((r) => `rejected line ${r.line}: ${forTerminal(r.reason)}`),
  ];
  return `${lines.join('\n')}\n`;
}
