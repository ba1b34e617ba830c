import { describe, expect, it } from 'vitest';
import { resolveUsagePolicy } from '../../../generator/emit/usage-policy.js';
import { makeSampleConfig, SAMPLE_CONFIG_INPUT } from '../../helpers/sample-plan.js';

function headerMap(headers: [string, string][]): Map<string, string> {
  return new Map(headers.map(([name, value]) => [name.toLowerCase(), value]));
}

describe('resolveUsagePolicy', () => {
  it('by default allows search and AI input and refuses training in every form', () => {
    const policy = resolveUsagePolicy(makeSampleConfig());
    expect(policy.contentSignal).toBe('search=yes, ai-input=yes, ai-train=no');
    expect(policy.contentUsage).toBe('train-ai=n');
    expect(policy.tdmRep).toEqual([
      { location: '/', 'tdm-reservation': 1, 'tdm-policy': 'https://shop.pomona.example/api/#usage' },
    ]);
    const headers = headerMap(policy.headers);
    expect(headers.get('content-usage')).toBe('train-ai=n');
    expect(headers.get('tdm-reservation')).toBe('1');
    expect(headers.get('tdm-policy')).toBe(policy.tdmPolicyUrl);
    expect(headers.get('ratelimit-policy')).toBe('"default";q=60;w=60');
    expect(policy.rules.map((rule) => rule.id)).toEqual([
      'attribution',
      'citation',
      'rate',
      'training',
      'purchases',
    ]);
    expect(policy.attribution).toContain('Pomona Press Juice Co.');
  });

  it('derives every form from config.usage when the merchant changes it', () => {
    const policy = resolveUsagePolicy(
      makeSampleConfig({
        ...SAMPLE_CONFIG_INPUT,
        usage: {
          allow_training: true,
          allow_search: false,
          allow_ai_input: false,
          requests_per_minute: 30,
          tdm_policy_url: 'https://shop.pomona.example/tdm-policy.json',
        },
      }),
    );
    expect(policy.contentSignal).toBe('search=no, ai-input=no, ai-train=yes');
    expect(policy.contentUsage).toBe('train-ai=y, search=n');
    expect(policy.tdmRep).toEqual([{ location: '/', 'tdm-reservation': 0 }]);
    const headers = headerMap(policy.headers);
    expect(headers.get('tdm-reservation')).toBe('0');
    expect(headers.has('tdm-policy')).toBe(false);
    expect(headers.get('ratelimit-policy')).toBe('"default";q=30;w=60');
    expect(policy.rules.map((rule) => rule.id)).not.toContain('citation');
  });

  it('uses the configured TDM policy and terms URLs', () => {
    const policy = resolveUsagePolicy(
      makeSampleConfig({
        ...SAMPLE_CONFIG_INPUT,
        usage: {
          terms_url: 'https://shop.pomona.example/terms',
          tdm_policy_url: 'https://shop.pomona.example/tdm',
        },
      }),
    );
    expect(policy.termsUrl).toBe('https://shop.pomona.example/terms');
    expect(policy.tdmRep[0]?.['tdm-policy']).toBe('https://shop.pomona.example/tdm');
  });
});
