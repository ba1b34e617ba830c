/**
 * Just enough HTML form reading to sign in and consent the way a person would, on any
 * issuer: the forms on a page with their action, fields and submit buttons. The pages it
 * reads are the issuers' own sign-in and consent screens (ours and oidc-provider's dev
 * interactions), which are small and regular; this is a benchmark's set-up, not a
 * general HTML parser.
 */

export interface FormField {
  name: string;
  type: string;
  value: string;
}

export interface FormButton {
  text: string;
  name: string | undefined;
  value: string | undefined;
}

export interface HtmlForm {
  action: string | undefined;
  method: string;
  fields: FormField[];
  buttons: FormButton[];
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, entity: string) => {
    if (entity.startsWith('#x') || entity.startsWith('#X'))
      return String.fromCodePoint(Number.parseInt(entity.slice(2), 16));
    if (entity.startsWith('#')) return String.fromCodePoint(Number.parseInt(entity.slice(1), 10));
    return ENTITIES[entity.toLowerCase()] ?? whole;
  });
}

function readAttributes(tag: string): Map<string, string> {
  const attributes = new Map<string, string>();
  const pattern = /([a-zA-Z_:][-a-zA-Z0-9_:.]*)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+)))?/g;
  // Skip the element name itself.
  const body = tag.replace(/^<\s*[a-zA-Z]+/, '');
  for (const match of body.matchAll(pattern)) {
    const name = match[1]?.toLowerCase();
    if (name) attributes.set(name, decodeEntities(match[2] ?? match[3] ?? match[4] ?? ''));
  }
  return attributes;
}

function readForm(openTag: string, inner: string): HtmlForm {
  const attributes = readAttributes(openTag);
  const fields: FormField[] = [];
  for (const match of inner.matchAll(/<input\b[^>]*>/gi)) {
    const input = readAttributes(match[0]);
    const name = input.get('name');
    const type = (input.get('type') ?? 'text').toLowerCase();
    if (name && type !== 'submit') fields.push({ name, type, value: input.get('value') ?? '' });
  }
  const buttons: FormButton[] = [];
  for (const match of inner.matchAll(/<button\b([^>]*)>([\s\S]*?)<\/button>/gi)) {
    const button = readAttributes(`<button ${match[1] ?? ''}>`);
    const text = decodeEntities((match[2] ?? '').replace(/<[^>]*>/g, '')).trim();
    buttons.push({ text, name: button.get('name'), value: button.get('value') });
  }
  return {
    action: attributes.get('action'),
    method: (attributes.get('method') ?? 'get').toLowerCase(),
    fields,
    buttons,
  };
}

export function readForms(html: string): HtmlForm[] {
  return [...html.matchAll(/(<form\b[^>]*>)([\s\S]*?)<\/form>/gi)].map((match) =>
    readForm(match[1] ?? '', match[2] ?? ''),
  );
}
