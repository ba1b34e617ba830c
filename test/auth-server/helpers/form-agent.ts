/**
 * A tiny "browser" for the issuer's pages: fetch with a cookie jar and manual redirects,
 * plus a parser that finds forms, their fields by <label>, and buttons by their text, and
 * submits them as a browser would. Enough to drive sign-in and consent without Chromium,
 * and strict enough that a renamed label or button makes the tests fail.
 */

export interface ParsedForm {
  action: string;
  method: string;
  inputs: { name: string; value: string; type: string; id?: string }[];
  buttons: { text: string; name?: string; value?: string }[];
  labels: Map<string, string>;
}

export interface Page {
  status: number;
  url: string;
  headers: Headers;
  html: string;
  location?: string;
}

const ENTITIES: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, body: string) => {
    if (body.startsWith('#x') || body.startsWith('#X'))
      return String.fromCodePoint(Number.parseInt(body.slice(2), 16));
    if (body.startsWith('#')) return String.fromCodePoint(Number.parseInt(body.slice(1), 10));
    return ENTITIES[body.toLowerCase()] ?? whole;
  });
}

function attributes(tag: string): Record<string, string> {
  const result: Record<string, string> = {};
  for (const match of tag.matchAll(/([a-zA-Z_:-]+)(?:\s*=\s*"([^"]*)")?/g)) {
    const [, name, value] = match;
    if (name) result[name.toLowerCase()] = decodeEntities(value ?? '');
  }
  return result;
}

function stripTags(html: string): string {
  return decodeEntities(html.replace(/<[^>]*>/g, ''))
    .replace(/\s+/g, ' ')
    .trim();
}

/** A form's labels by text, each to the id it is for (a page may reuse a label in two forms). */
function labelsIn(body: string): Map<string, string> {
  const labels = new Map<string, string>();
  for (const m of body.matchAll(/<label\b([^>]*)>([\s\S]*?)<\/label>/g)) {
    const forId = attributes(m[1] ?? '').for;
    if (forId) labels.set(stripTags(m[2] ?? ''), forId);
  }
  return labels;
}

export function parseForms(html: string): ParsedForm[] {
  return [...html.matchAll(/<form\b([^>]*)>([\s\S]*?)<\/form>/g)].map((m) => {
    const attrs = attributes(m[1] ?? '');
    const body = m[2] ?? '';
    const labels = labelsIn(body);
    const inputs = [...body.matchAll(/<input\b([^>]*)>/g)].map((i) => {
      const a = attributes(i[1] ?? '');
      return {
        name: a.name ?? '',
        value: a.value ?? '',
        type: a.type ?? 'text',
        ...(a.id ? { id: a.id } : {}),
      };
    });
    const buttons = [...body.matchAll(/<button\b([^>]*)>([\s\S]*?)<\/button>/g)].map((b) => {
      const a = attributes(b[1] ?? '');
      return {
        text: stripTags(b[2] ?? ''),
        ...(a.name ? { name: a.name } : {}),
        ...(a.value ? { value: a.value } : {}),
      };
    });
    return {
      action: attrs.action ?? '',
      method: (attrs.method ?? 'get').toLowerCase(),
      inputs,
      buttons,
      labels,
    };
  });
}

export class FormAgent {
  readonly cookies = new Map<string, string>();

  constructor(readonly origin: string) {}

  #store(headers: Headers): void {
    for (const line of headers.getSetCookie()) {
      const [pair = '', ...attrs] = line.split(';');
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      if (attrs.some((a) => /^\s*max-age=0\s*$/i.test(a)) || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  async request(url: string, init: RequestInit = {}): Promise<Page> {
    const headers = new Headers(init.headers);
    if (this.cookies.size > 0 && new URL(url, this.origin).origin === this.origin) {
      headers.set('cookie', [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; '));
    }
    const full = new URL(url, this.origin).href;
    const response = await fetch(full, { ...init, headers, redirect: 'manual' });
    this.#store(response.headers);
    const location = response.headers.get('location') ?? undefined;
    return {
      status: response.status,
      url: full,
      headers: response.headers,
      html: await response.text(),
      ...(location ? { location: new URL(location, full).href } : {}),
    };
  }

  get(url: string): Promise<Page> {
    return this.request(url);
  }

  /** Follows redirects on the issuer's origin; stops at a page or at a redirect elsewhere. */
  async follow(page: Page): Promise<Page> {
    let current = page;
    for (
      let hop = 0;
      hop < 10 && current.location && new URL(current.location).origin === this.origin;
      hop++
    ) {
      current = await this.get(current.location);
    }
    return current;
  }

  /** Fills fields by their label text and presses the button with exactly this text. */
  async submit(page: Page, button: string, fields: Readonly<Record<string, string>> = {}): Promise<Page> {
    const form = parseForms(page.html).find((f) => f.buttons.some((b) => b.text === button));
    if (!form) throw new Error(`no form with a "${button}" button at ${page.url} (status ${page.status})`);
    const body = new URLSearchParams();
    const byId = new Map(Object.entries(fields).map(([label, value]) => [form.labels.get(label), value]));
    for (const label of Object.keys(fields))
      if (!form.labels.has(label)) throw new Error(`no field labelled ${label}`);
    for (const input of form.inputs) {
      if (!input.name) continue;
      body.append(input.name, (input.id ? byId.get(input.id) : undefined) ?? input.value);
    }
    const pressed = form.buttons.find((b) => b.text === button);
    if (pressed?.name) body.append(pressed.name, pressed.value ?? '');
    return this.request(new URL(form.action, page.url).href, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: body.toString(),
    });
  }
}

/**
 * Runs the browser side of an authorization: opens the URL, signs in when asked, presses
 * `decision` on the consent page when shown, and returns the redirect to the client.
 */
export async function authorizeInBrowser(
  agent: FormAgent,
  authorizationUrl: string,
  credentials: { email: string; password: string },
  decision: 'Allow' | 'Deny' = 'Allow',
): Promise<URL> {
  let page = await agent.follow(await agent.get(authorizationUrl));
  for (let step = 0; step < 4; step++) {
    if (page.location) return new URL(page.location);
    const buttons = parseForms(page.html).flatMap((f) => f.buttons.map((b) => b.text));
    if (buttons.includes('Sign in')) {
      page = await agent.follow(
        await agent.submit(page, 'Sign in', { Email: credentials.email, Password: credentials.password }),
      );
    } else if (buttons.includes(decision)) {
      page = await agent.follow(await agent.submit(page, decision));
    } else {
      throw new Error(
        `unexpected page (status ${page.status}): ${page.html
          .replace(/<style>[\s\S]*<\/style>/, '')
          .replace(/<[^>]*>/g, ' ')
          .replace(/\s+/g, ' ')
          .slice(0, 300)}`,
      );
    }
  }
  throw new Error('the authorization did not finish');
}
