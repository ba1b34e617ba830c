import { describe, expect, test } from 'vitest';
import { choosePageForm, negotiatePage, parseAccept, qualityOf } from '../../live/markdown-negotiation.js';

describe('Accept with q-values (RFC 9110 §12.5.1)', () => {
  test.each([
    [null, 'text/html'],
    ['', 'text/html'],
    ['text/markdown', 'text/markdown'],
    ['text/markdown, text/html;q=0.9', 'text/markdown'],
    ['text/html, text/markdown', 'text/html'],
    ['text/html;q=0.5, text/markdown;q=0.8', 'text/markdown'],
    ['text/markdown;q=0.5, text/*;q=0.9', 'text/html'],
    ['text/*;q=0.3, text/markdown', 'text/markdown'],
    ['text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8', 'text/html'],
    ['*/*', 'text/html'],
    ['text/markdown, */*;q=0.1', 'text/markdown'],
    ['TEXT/Markdown', 'text/markdown'],
    ['text/html;q=0, */*', 'text/markdown'],
    ['application/json', undefined],
    ['text/html;q=0, text/markdown;q=0', undefined],
  ])('Accept %j gets %s', (accept, expected) => {
    expect(choosePageForm(accept)).toBe(expected);
  });

  test("the most specific matching range decides a type's weight, and malformed members are skipped", () => {
    const ranges = parseAccept('text/*;q=0.2, text/markdown;q=0.7, */*;q=0.1, nonsense, text/html;q=2');
    expect(ranges).toHaveLength(3);
    expect(qualityOf(ranges, 'text/markdown')).toBe(0.7);
    expect(qualityOf(ranges, 'text/html')).toBe(0.2);
    expect(qualityOf(ranges, 'image/png')).toBe(0.1);
  });
});

describe('negotiatePage', () => {
  const forms = {
    markdown: '# Pomona\n\nTwelve juices.\n',
    html: async () =>
      new Response('<!doctype html><title>Pomona</title>', {
        headers: { 'content-type': 'text/html; charset=utf-8', vary: 'Origin' },
      }),
    headers: { 'access-control-allow-origin': '*' },
  };
  const get = (accept?: string, method = 'GET') =>
    new Request('https://agents.pomona.example/', { method, headers: accept ? { accept } : {} });

  test('serves the twin with its type, Vary and a token estimate when Markdown is preferred', async () => {
    const response = await negotiatePage(get('text/markdown'), forms);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
    expect(response.headers.get('vary')).toBe('Accept');
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(Number(response.headers.get('x-markdown-tokens'))).toBeGreaterThan(0);
    expect(await response.text()).toBe(forms.markdown);
  });

  test('falls through to the HTML page, adding Accept to its Vary', async () => {
    const response = await negotiatePage(get('text/html,*/*;q=0.8'), forms);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(response.headers.get('vary')).toBe('Origin, Accept');
    expect(await response.text()).toContain('<!doctype html>');
  });

  test('answers 406 only when neither form is acceptable, and HEAD without a body', async () => {
    const refused = await negotiatePage(get('application/json'), forms);
    expect(refused.status).toBe(406);
    expect(refused.headers.get('vary')).toBe('Accept');
    const head = await negotiatePage(get('text/markdown', 'HEAD'), forms);
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
  });
});
