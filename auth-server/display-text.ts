/**
 * Which characters a self-registered client may put in the text the issuer shows people on
 * its behalf (client_name on the consent page, contacts, software id and version). RFC
 * 7591 §5 warns that such metadata is unverified; beyond honest words it could carry
 * characters that make the page lie: a right-to-left override turns "Acme Store
 * \u202Edeifirev\u202C" into "Acme Store verified", zero-width characters hide one name
 * inside another, newlines and NUL break the layout and the store. Refused, by Unicode
 * general category: controls (Cc, C0 and C1, DEL), format characters (Cf: every bidi
 * override, embedding, isolate and mark, the zero-width space, joiners, word joiner and
 * byte-order mark), unpaired surrogates (Cs), private use (Co), and the line and paragraph
 * separators (Zl, Zp). The cost: an emoji sequence built with a zero-width joiner is refused.
 * The same set is what the CLI must not print raw (`forTerminal`): ESC starts CSI and OSC
 * sequences, CR overwrites a line, C1 CSI recolours, a bidi override reverses text.
 */

const CLASSES: readonly (readonly [RegExp, string])[] = [
  [/\p{Cc}/u, 'a control character (NUL, newline, tab, DEL or C1)'],
  [/[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/u, 'a bidirectional formatting character'],
  [/\p{Cf}/u, 'an invisible formatting character (zero-width or byte-order mark)'],
  [/\p{Cs}/u, 'an unpaired surrogate'],
  [/[\p{Co}\p{Zl}\p{Zp}]/u, 'a private-use or line-separator character'],
];

/** Why `text` is unfit to show a person, or undefined when it is fine. */
export function findUnsafeCharacter(text: string): string | undefined {
  for (const [pattern, description] of CLASSES) if (pattern.test(text)) return description;
  return undefined;
}

// Every class above in one global pattern (the bidi characters are all in Cf).
const UNSAFE_GLOBAL = /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Zl}\p{Zp}]/gu;

/**
 * `text` with each of those characters spelled out as a `\uXXXX` escape, so a line the CLI
 * prints shows what a file or flag held but a terminal acts on none of it. The one printer
 * for input the CLI echoes (customer-import.ts's report, cli.ts's error line).
 */
export function forTerminal(text: string): string {
  return text.replace(UNSAFE_GLOBAL, (character) => {
    const code = character.codePointAt(0) ?? 0;
    return code > 0xffff ? `\\u{${code.toString(16)}}` : `\\u${code.toString(16).padStart(4, '0')}`;
  });
}

/** `forTerminal` for text of several lines: each line escaped, the line breaks kept. */
export function linesForTerminal(text: string): string {
  return text.split('\n').map(forTerminal).join('\n');
}
