/**
 * The merchant's usage policy (spec 5.6: cite with attribution, stay under about 60
 * requests a minute, no model training, no automated purchases), resolved once from
 * `config.usage` into every form it is published in: the sentences of llms.txt and the
 * knowledge base, the `Content-Signal` and `Content-Usage` lines of robots.txt, the W3C
 * TDMRep file and HTTP fields, and the `RateLimit-Policy` header. Every document and the
 * hosting rules call `resolveUsagePolicy`, so the forms cannot disagree.
 */
import type { ResolvedConfig } from '../config.js';

export interface TdmRepRule {
  location: string;
  'tdm-reservation': 0 | 1;
  'tdm-policy'?: string;
}

export interface UsageRule {
  /** Stable key, e.g. `attribution`, `rate`, `training`, `purchases`. */
  id: 'attribution' | 'citation' | 'rate' | 'training' | 'purchases';
  text: string;
}

export interface UsagePolicy {
  merchant: string;
  attribution: string;
  allowSearch: boolean;
  allowAiInput: boolean;
  allowTraining: boolean;
  requestsPerMinute: number;
  termsUrl: string;
  /** Where the TDM policy lives; it states that citation stays permitted. */
  tdmPolicyUrl: string;
  /** Value of the robots.txt `Content-Signal` line (contentsignals.org). */
  contentSignal: string;
  /** Value of `Content-Usage` in robots.txt and as an HTTP field (IETF aipref vocabulary). */
  contentUsage: string;
  /** Human-readable rules, in a fixed order. */
  rules: UsageRule[];
  /** The `/.well-known/tdmrep.json` body. */
  tdmRep: TdmRepRule[];
  /** Response header fields that carry the policy on every public document. */
  headers: [name: string, value: string][];
  /** One-line licence statement for front matter and JSON documents. */
  license: string;
}

function yesNo(value: boolean): 'yes' | 'no' {
  return value ? 'yes' : 'no';
}

/**
 * Content-Usage follows draft-ietf-aipref-vocab (categories `train-ai`, `search`; values
 * `y`/`n`) attached as draft-ietf-aipref-attach defines. Only what the merchant refuses or
 * grants about training is stated; search is stated only when it is refused, because an
 * unstated category means "no preference", which is what allowing search means here.
 */
function describeContentUsage(allowSearch: boolean, allowTraining: boolean): string {
  const parts = [`train-ai=${allowTraining ? 'y' : 'n'}`];
  if (!allowSearch) parts.push('search=n');
  return parts.join(', ');
}

function describeRules(config: ResolvedConfig, attribution: string, termsUrl: string): UsageRule[] {
  const { usage, merchant } = config;
  const rules: UsageRule[] = [{ id: 'attribution', text: `Attribution: ${attribution}` }];
  if (usage.allow_ai_input) {
    rules.push({
      id: 'citation',
      text: 'Reading, quoting and citing product, policy and article content is permitted, with attribution and a link to the product URL.',
    });
  }
  rules.push(
    {
      id: 'rate',
      text: `Rate: keep automated requests under ${usage.requests_per_minute} a minute.`,
    },
    {
      id: 'training',
      text: usage.allow_training
        ? 'Training: content may be used to train models, with attribution.'
        : 'Training: content must not be used to train or fine-tune models.',
    },
    {
      id: 'purchases',
      text: `Purchases: do not automate purchases; there are no cart, order or payment endpoints, and a person completes every purchase on ${merchant.url}. Terms: ${termsUrl}`,
    },
  );
  return rules;
}

export function resolveUsagePolicy(config: ResolvedConfig): UsagePolicy {
  const { usage } = config;
  const merchant = config.merchant.name;
  const attribution = usage.attribution.replaceAll('{merchant}', merchant);
  const termsUrl = usage.terms_url ?? `${config.site_url}/api/#usage`;
  const tdmPolicyUrl = usage.tdm_policy_url ?? termsUrl;
  const reservation: 0 | 1 = usage.allow_training ? 0 : 1;
  const contentUsage = describeContentUsage(usage.allow_search, usage.allow_training);
  // TDMRep (W3C CG final report, section 3): `tdm-reservation: 1` reserves text and data
  // mining rights; `tdm-policy` points at the terms under which mining (here: citation,
  // never training) is still allowed. "/" applies the rule to every resource of the origin.
  const tdmRep: TdmRepRule[] = [
    reservation === 1
      ? { location: '/', 'tdm-reservation': 1, 'tdm-policy': tdmPolicyUrl }
      : { location: '/', 'tdm-reservation': 0 },
  ];
  const headers: [string, string][] = [
    ['Content-Usage', contentUsage],
    ['tdm-reservation', String(reservation)],
  ];
  if (reservation === 1) headers.push(['tdm-policy', tdmPolicyUrl]);
  headers.push(['RateLimit-Policy', `"default";q=${usage.requests_per_minute};w=60`]);
  return {
    merchant,
    attribution,
    allowSearch: usage.allow_search,
    allowAiInput: usage.allow_ai_input,
    allowTraining: usage.allow_training,
    requestsPerMinute: usage.requests_per_minute,
    termsUrl,
    tdmPolicyUrl,
    contentSignal: `search=${yesNo(usage.allow_search)}, ai-input=${yesNo(usage.allow_ai_input)}, ai-train=${yesNo(usage.allow_training)}`,
    contentUsage,
    rules: describeRules(config, attribution, termsUrl),
    tdmRep,
    headers,
    license: usage.allow_training
      ? `Content may be cited and used with attribution to ${merchant}. ${attribution}`
      : `Content may be read, quoted and cited with attribution to ${merchant}; it must not be used to train models. ${attribution}`,
  };
}
