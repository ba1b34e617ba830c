import { describe, expect, it } from 'vitest';
import { editDistance, nearestName } from '../../cli/nearest-name.js';

describe('editDistance', () => {
  it.each([
    ['content_dir', 'content_dir', 0],
    ['contnet_dir', 'content_dir', 1],
    ['sorce', 'source', 1],
    ['', 'abc', 3],
    ['kitten', 'sitting', 3],
  ])('from %s to %s is %i', (a, b, distance) => {
    expect(editDistance(a, b)).toBe(distance);
    expect(editDistance(b, a)).toBe(distance);
  });
});

describe('nearestName', () => {
  const keys = ['site_url', 'base_url', 'auth_url', 'content_dir', 'storefront_url'];

  it('when a key is one swap away then it is suggested', () => {
    expect(nearestName('contnet_dir', keys)).toBe('content_dir');
  });

  it('when the case differs then the key is still found', () => {
    expect(nearestName('Site_URL', keys)).toBe('site_url');
  });

  it('when two keys are equally near then the first alphabetically wins, whatever the order given', () => {
    expect(nearestName('mail_x', ['mail_z', 'mail_y'])).toBe('mail_y');
    expect(nearestName('mail_x', ['mail_y', 'mail_z'])).toBe('mail_y');
  });

  it('when nothing is within a third of the word then nothing is suggested', () => {
    expect(nearestName('shipping', keys)).toBeUndefined();
    expect(nearestName('ab', ['xy'])).toBeUndefined();
  });
});
