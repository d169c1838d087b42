/** Shared pieces of the cross-vendor run tests: a small design, the CLI arguments, the custom ids of Anthropic batches. */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { anthropicCustomId } from '../../src/live/batch/anthropic.js';
import { trialKey } from '../../src/live/batch/chunks.js';
import { expandDesign, parseDesign } from '../../src/live/design/design.js';
import type { Scoring } from '../../src/live/types.js';

/** By hand: 2 models × 2 games × 2 framings × 10 trials. */
export const SMALL_TRIALS = 2 * 2 * 2 * 10;

export function smallDesign(scoring: Scoring): string {
  return ['name: small', 'models:', '  - { id: m-a, provider: openai-chat, prices: { input: 1, output: 2 } }',
    '  - { id: m-b, provider: openai-chat, prices: { input: 1, output: 2, batch_discount: 0.25 } }',
    'games: [prisoners-dilemma, stag-hunt]', 'framings: [business, friend-sharing]', 'trials: 10',
    'decoding: { temperature: 0.8, max_tokens: 8, seed: 1 }', `scoring: ${scoring}`, ''].join('\n');
}

/** Write the small design into `dir`; returns its path. */
export function writeSmall(dir: string, scoring: Scoring): string {
  const p = join(dir, `small-${scoring}.yaml`);
  writeFileSync(p, smallDesign(scoring));
  return p;
}

/** custom_id → trial key for every trial of the small design (Anthropic batches carry hashed ids). */
export function anthropicKeys(scoring: Scoring): Map<string, string> {
  const specs = expandDesign(parseDesign(smallDesign(scoring), 'small.yaml'));
  return new Map(specs.map((s) => [anthropicCustomId(trialKey(s)), trialKey(s)]));
}

export function runArgs(design: string, store: string, provider: string, url: string, extra: string[] = []): string[] {
  return ['run', design, '--store', store, '--provider', provider, '--base-url', url, '--model', 'loop', ...extra];
}
