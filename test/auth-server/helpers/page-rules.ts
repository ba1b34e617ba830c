/**
 * The CONTRACT's rules for the issuer's pages, checked in a real Chromium page: the title
 * and the one main heading name the merchant, and the form controls keep to the reserved
 * names (inputs `Email`, `Password`, `New password`; buttons `Sign in`, `Allow`, `Deny`,
 * `Sign out`, `Send link`, `Set password`; no other control's name contains one of them).
 * The controls and their accessible names come from Chromium's own accessibility tree
 * (DevTools `Accessibility.getFullAXTree`), not from our reading of the HTML.
 */
import type { Page } from 'playwright-core';

const INPUT_NAMES = ['Email', 'Password', 'New password'];
const BUTTON_NAMES = ['Sign in', 'Allow', 'Deny', 'Sign out', 'Send link', 'Set password'];
const RESERVED = [...INPUT_NAMES, ...BUTTON_NAMES].map((word) => word.toLowerCase());
const INPUT_ROLES = new Set(['textbox', 'searchbox', 'combobox', 'checkbox', 'radio', 'spinbutton']);
// A <summary> is announced as a button by screen readers, so it counts as one here.
const BUTTON_ROLES = new Set(['button', 'DisclosureTriangle', 'menuitem']);

export interface Control {
  kind: 'input' | 'button';
  name: string;
}

interface AxNode {
  ignored: boolean;
  role?: { value?: unknown };
  name?: { value?: unknown };
}

/** Every input and button Chromium exposes on the page, with its accessible name. */
export async function formControls(page: Page): Promise<Control[]> {
  const cdp = await page.context().newCDPSession(page);
  try {
    const { nodes } = (await cdp.send('Accessibility.getFullAXTree')) as { nodes: AxNode[] };
    return nodes.flatMap((node): Control[] => {
      const role = String(node.role?.value ?? '');
      const name = String(node.name?.value ?? '');
      if (node.ignored) return [];
      if (INPUT_ROLES.has(role)) return [{ kind: 'input', name }];
      if (BUTTON_ROLES.has(role)) return [{ kind: 'button', name }];
      return [];
    });
  } finally {
    await cdp.detach();
  }
}

/** The controls that break the label rules, each with why. */
export function labelRuleBreaches(controls: readonly Control[]): string[] {
  return controls.flatMap(({ kind, name }) => {
    const allowed = kind === 'input' ? INPUT_NAMES : BUTTON_NAMES;
    if (allowed.includes(name)) return [];
    const word = RESERVED.find((w) => name.toLowerCase().includes(w));
    return word ? [`${kind} "${name}" contains the reserved "${word}"`] : [];
  });
}

/** The page's title, its level-one headings' texts, and its label-rule breaches. */
export async function pageFacts(page: Page): Promise<{ title: string; h1: string[]; breaches: string[] }> {
  return {
    title: await page.title(),
    h1: (await page.locator('h1').allInnerTexts()).map((t) => t.trim()),
    breaches: labelRuleBreaches(await formControls(page)),
  };
}
