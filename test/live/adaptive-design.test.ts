/** The stop: block of a design and run --until: what they accept, and the one line each refusal gives. */
import { describe, expect, it } from 'vitest';
import { parseDesign } from '../../src/live/design/design.js';
import { simulatedPCooperate } from '../../src/live/providers/simulated.js';
import { modelSpec } from '../../src/live/design/models.js';
import { parseUntil } from '../../src/live/design/stop.js';
import { loadDesign } from '../../src/live/design/design.js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Papa from 'papaparse';
import { ROOT } from '../helpers/cli.js';

const base = (stop: string, framings = '[business, friend-sharing]') => `name: adaptive
models: [{ id: Sim, provider: simulated }]
games: [prisoners-dilemma]
framings: ${framings}
trials: 300
${stop}
`;
const refusal = (stop: string, framings?: string) => {
  try { parseDesign(base(stop, framings), 'd.yaml'); } catch (e) { return (e as Error).message; }
  return 'accepted';
};

describe('the stop: block', () => {
  it('resolves with its defaults (confidence 0.95, wave 20, betting, max_trials = trials, base and alt the two framings)', () => {
    const d = parseDesign(base('stop: { target: shift, half_width: 0.05 }'), 'd.yaml');
    expect(d.stop).toEqual({
      target: 'shift', halfWidth: 0.05, confidence: 0.95, wave: 20, maxTrials: 300, method: 'betting', base: 'business', alt: 'friend-sharing',
    });
  });
  it('is absent from a design without one (its hash is unchanged)', () => {
    expect(parseDesign(base(''), 'd.yaml').stop).toBeUndefined();
  });
  it.each([
    ['stop: { target: shift }', 'd.yaml:6: field "stop": a stop rule needs half_width, decide, or both'],
    ['stop: { target: rate, decide: sign }', 'd.yaml:6: field "stop.decide": decide applies to target: shift'],
    ['stop: { target: shift, decide: equivalence }', 'd.yaml:6: field "stop.delta": decide: equivalence needs delta'],
    ['stop: { target: rate, half_width: 0.05, max_trials: 400 }', 'd.yaml:6: field "stop.max_trials": max_trials 400 is above the design\'s trials (300)'],
    ['stop: { target: shift, half_width: 0.05, alt: abstract }', 'd.yaml:6: field "stop.alt": alt "abstract" is not a framing of this design'],
    ['stop: { target: rate, half_width: 0, wave: 20 }', 'd.yaml:6: field "stop.half_width": Too small'],
    ['stop: { target: rate, half_width: 0.1, method: bootstrap }', 'd.yaml:6: field "stop.method": Invalid option'],
  ])('refuses %s in one line naming file, line and field', (stop, start) => {
    const m = refusal(stop);
    expect(m.startsWith(start), m).toBe(true);
    expect(m.split('\n')).toHaveLength(1);
  });
  it('refuses a shift on a design of three framings', () => {
    expect(refusal('stop: { target: shift, half_width: 0.05 }', '[business, friend-sharing, abstract-matrix]'))
      .toMatch(/^d\.yaml:6: field "stop\.target": target: shift samples two different framings in lockstep; this design has 3 framings/);
  });
});

describe('the stop: block of a repeated game', () => {
  const play = (stop: string) => `${base(stop)}play: { rounds: 5, opponents: [self, tit-for-tat] }\n`;
  it('is accepted (the match is the unit: max_trials counts matches, at most the design\'s trials), in the block and on --until', () => {
    const d = parseDesign(play('stop: { target: shift, decide: sign, wave: 10, max_trials: 100 }'), 'd.yaml');
    expect(d.stop).toMatchObject({ target: 'shift', decide: 'sign', wave: 10, maxTrials: 100, base: 'business', alt: 'friend-sharing' });
    expect(parseUntil('target=rate,half_width=0.1', parseDesign(play(''), 'd.yaml'))).toMatchObject({ target: 'rate', maxTrials: 300 });
    let m = 'accepted';
    try { parseDesign(play('stop: { target: rate, half_width: 0.1, max_trials: 301 }'), 'd.yaml'); } catch (e) { m = (e as Error).message; }
    expect(m).toMatch(/^d\.yaml:6: field "stop\.max_trials": max_trials 301 is above the design's trials \(300\)/);
  });
  it('is refused on a context-enrichment design, in one line', () => {
    let m = 'accepted';
    try { parseUntil('target=rate,half_width=0.1', { framings: [{ id: 'a' }], trials: 10, enrichment: {} }); } catch (e) { m = (e as Error).message; }
    expect(m).toBe('--until: a stop rule applies to one-shot and repeated-game designs (not to a context-enrichment design)');
  });
});

describe('run --until', () => {
  const design = parseDesign(base(''), 'd.yaml');
  it('reads key=value pairs into the stop rule', () => {
    expect(parseUntil('target=shift, half_width=0.05,decide=sign,wave=10,method=normal-mixture', design)).toEqual({
      target: 'shift', halfWidth: 0.05, decide: 'sign', confidence: 0.95, wave: 10, maxTrials: 300, method: 'normal-mixture',
      base: 'business', alt: 'friend-sharing',
    });
  });
  it.each([
    ['target=shift;half_width=0.05', '--until: target: Invalid option'],
    ['half_width', '--until: expected key=value pairs separated by commas'],
    ['target=rate', '--until: a stop rule needs half_width, decide, or both'],
    ['target=rate,half_width=2', '--until: half_width:'],
    ['target=shift,decide=equivalence', '--until: delta: decide: equivalence needs delta'],
    ['target=rate,half_width=0.1,colour=red', '--until: '],
  ])('refuses %s in one line', (text, start) => {
    let m = 'accepted';
    try { parseUntil(text, design); } catch (e) { m = (e as Error).message; }
    expect(m.startsWith(start), m).toBe(true);
    expect(m.split('\n')).toHaveLength(1);
  });
});

describe('the shipped adaptive example (data/designs/same-game-adaptive-sim.yaml)', () => {
  it('answers at the shipped Lorè–Heydari rates, cell by cell, and stops by shift', () => {
    const d = loadDesign(join(ROOT, 'data/designs/same-game-adaptive-sim.yaml'));
    const rows = Papa.parse<Record<string, string>>(readFileSync(join(ROOT, 'data/lore-heydari-2024/rates.csv'), 'utf8').trim(), { header: true }).data;
    expect(d.stop).toMatchObject({ target: 'shift', halfWidth: 0.05, decide: 'sign', maxTrials: 300 });
    let checked = 0;
    for (const r of rows) {
      const game = d.games.find((g) => g.name === r.game)!;
      const model = d.models.find((m) => m.id === r.model)!;
      expect(simulatedPCooperate(modelSpec(model), game, r.framing, 1), `${r.model} ${r.game} ${r.framing}`).toBe(Number(r.rate));
      checked++;
    }
    expect(checked).toBe(24);
  });
});
