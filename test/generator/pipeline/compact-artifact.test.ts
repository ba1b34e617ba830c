/**
 * The build keeps each emitted body as UTF-8 bytes (compact-artifact.ts) so a 100,000-product
 * bundle fits Node's default heap. Every reader still sees the same text; assigning a body
 * keeps the bytes and the value it was serialised from in step; a copy is read from its text.
 */
import { describe, expect, it } from 'vitest';
import type { Artifact } from '../../../generator/artifact.js';
import { artifactBytes, compactArtifact, isCompactArtifact } from '../../../generator/compact-artifact.js';
import { emitBundle } from '../../../generator/emit/index.js';
import { bundleFilesOf, type DocumentReader, readOnce } from '../../../generator/validate/parse-once.js';
import { makeSamplePlan } from '../../helpers/sample-plan.js';

const TEXT = '{"name":"Ginger shot — 生姜 🍋","price":"4.50"}';
const fromValue: DocumentReader<unknown> = {
  name: 'json',
  parse: (body) => JSON.parse(body),
  fromSerialised: (value) => value,
};

function compactJson(): Artifact {
  return compactArtifact({
    path: 'a.json',
    mediaType: 'application/json',
    body: TEXT,
    serialisedFrom: { body: TEXT, value: { from: 'value' } },
  });
}

describe('a compact artifact', () => {
  it('reads back the text it was given, characters past U+00FF included, and holds it as UTF-8', () => {
    const artifact = compactJson();
    expect(artifact.body).toBe(TEXT);
    expect(artifactBytes(artifact).equals(Buffer.from(TEXT, 'utf8'))).toBe(true);
    expect({ ...artifact }).toMatchObject({ path: 'a.json', body: TEXT });
  });

  it('is read from the value it was serialised from while its body is unchanged', () => {
    expect(readOnce(bundleFilesOf([compactJson()]), 'a.json', fromValue)).toEqual({ from: 'value' });
  });

  it('drops that value when its body is assigned, and keeps the new bytes', () => {
    const artifact = compactJson();
    artifact.body = '{"edited":true}';
    expect(artifact.serialisedFrom).toBeUndefined();
    expect(artifactBytes(artifact).toString('utf8')).toBe('{"edited":true}');
    expect(readOnce(bundleFilesOf([artifact]), 'a.json', fromValue)).toEqual({ edited: true });
  });

  it('gives a copy with another body no claim on the value', () => {
    const copy = { ...compactJson(), body: '{"copy":1}' };
    expect(isCompactArtifact(copy)).toBe(false);
    expect(readOnce(bundleFilesOf([copy]), 'a.json', fromValue)).toEqual({ copy: 1 });
  });

  it('is what the build emits, for every file of the bundle', () => {
    const artifacts = emitBundle(makeSamplePlan());
    expect(artifacts.length).toBeGreaterThan(20);
    expect(artifacts.filter((artifact) => !isCompactArtifact(artifact))).toEqual([]);
  });
});
