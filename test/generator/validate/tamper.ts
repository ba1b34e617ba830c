/**
 * Helpers for the gate's tests: the sample bundle as artifacts, and ways to break one
 * document of it (edit its text or its parsed JSON) to see the gate refuse.
 */
import type { Artifact } from '../../../generator/artifact.js';
import { emitBundle } from '../../../generator/emit/index.js';
import type { Problem } from '../../../generator/validate/index.js';
import { makeSamplePlan } from '../../helpers/sample-plan.js';

export type Json = Record<string, unknown>;

export function sampleArtifacts(): Artifact[] {
  return emitBundle(makeSamplePlan());
}

export function editText(
  artifacts: readonly Artifact[],
  path: string,
  edit: (body: string) => string,
): Artifact[] {
  let found = false;
  const edited = artifacts.map((artifact) => {
    if (artifact.path !== path) return artifact;
    found = true;
    const body = edit(artifact.body);
    if (body === artifact.body) throw new Error(`the edit left ${path} unchanged`);
    return { ...artifact, body };
  });
  if (!found) throw new Error(`no artifact ${path}`);
  return edited;
}

export function editJson(
  artifacts: readonly Artifact[],
  path: string,
  edit: (value: Json) => void,
): Artifact[] {
  return editText(artifacts, path, (body) => {
    const value = JSON.parse(body) as Json;
    edit(value);
    return `${JSON.stringify(value, null, 2)}\n`;
  });
}

export function withoutArtifact(artifacts: readonly Artifact[], path: string): Artifact[] {
  return artifacts.filter((artifact) => artifact.path !== path);
}

/** `path rule` pairs, for asserting on what was found without the wording. */
export function kinds(problems: readonly Problem[]): string[] {
  return [...new Set(problems.map((problem) => `${problem.path} ${problem.rule}`))].sort();
}

export function productAt(value: Json, index: number): Json {
  const products = value.products;
  if (!Array.isArray(products)) throw new TypeError('no products');
  return products[index] as Json;
}
