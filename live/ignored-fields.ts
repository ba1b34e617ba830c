/**
 * The top-level fields of a UCP REST body that the operation does not read. UCP's request
 * objects are open, so such a body is still answered, but an ignored field can change the
 * answer: `{"catalog": {"query": "ginger"}}`, the MCP tools' argument shape, posted to REST
 * is a search without a query, and the caller would get the first page of everything. The
 * answer says so in UCP's own `messages`: a warning for a request nested one level too deep
 * (the products are not what was asked for), an info message for any other unknown field
 * (an extension this catalog does not implement). Pure; the REST door merges them in.
 */
import type { UcpMessage } from './ucp-types.js';

/** A body is at most 64 KiB, but that is still thousands of keys: name the first few. */
const MAX_MESSAGES = 5;
const MAX_NAME_LENGTH = 80;
/** RFC 9535 member-name shorthand; other names get no `path` rather than a hand-escaped one. */
const SHORTHAND_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

function describeField(name: string): string {
  const shown = name.length > MAX_NAME_LENGTH ? `${name.slice(0, MAX_NAME_LENGTH)}…` : name;
  return JSON.stringify(shown);
}

function messageFor(name: string, known: readonly string[]): UcpMessage {
  const path = SHORTHAND_NAME.test(name) ? { path: `$.${name}` } : {};
  if (name === 'catalog') {
    return {
      type: 'warning',
      code: 'ignored_field',
      ...path,
      content: `ignored field "catalog": over REST the request's fields (${known.join(', ')}) sit at the top level of the body; "catalog" wraps them only in the MCP tools' arguments`,
    };
  }
  return {
    type: 'info',
    code: 'ignored_field',
    ...path,
    content: `ignored field ${describeField(name)}: this operation reads ${known.join(', ')}`,
  };
}

export function ignoredFieldMessages(body: unknown, known: readonly string[]): UcpMessage[] {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return [];
  const messages: UcpMessage[] = [];
  for (const name of Object.keys(body)) {
    if (known.includes(name)) continue;
    messages.push(messageFor(name, known));
    if (messages.length === MAX_MESSAGES) break;
  }
  return messages;
}
