/**
 * Repeated designs (`play:`) from a seeded generator, through `run --dry-run` (and, for short
 * matches, a real run of the simulated models): rounds from 2 up to the documented 1,000,
 * opponents (self, the other model, strategies with parameters), horizons, option orders, invalid
 * rules, personas and history renderers. An accepted design must plan exactly the decisions an
 * independent count gives — Σ matches × rounds × LLM seats — and a real run must store them; a
 * design the contract refuses (rounds 0, 1,001, 2.5 or "10", an unknown opponent, a model that
 * plays no match, an end probability of 1.5, a bad retry count) must end with one error line.
 */
import Database from 'better-sqlite3';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { mustRefuse, stream, type FuzzCase } from './common.js';

const STRATEGIES = ['always-cooperate', 'always-defect', 'tit-for-tat', 'grim-trigger', 'defect-once', 'suspicious-tit-for-tat', 'random', 'alternate'];
const BAD: readonly [string, string][] = [
  ['rounds 0', 'rounds: 0'], ['rounds 1001', 'rounds: 1001'], ['rounds 2.5', 'rounds: 2.5'], ['rounds "10"', 'rounds: "10"'],
  ['an unknown opponent', 'opponents: [Nobody]'], ['an end probability of 1.5', 'horizon: { end_probability: 1.5 }'],
  ['a retry count of -1', 'on_invalid: { retry: -1 }'], ['an option order "sometimes"', 'option_order: sometimes'],
];

interface Plan { models: string[]; games: number; framings: number; trials: number; rounds: number; opponents: string[] }

/** Σ matches × rounds × LLM seats, counted from the design as generated (a model named as its own opponent plays no match). */
function decisions(p: Plan): number {
  let n = 0;
  for (const m of p.models) for (const o of p.opponents) {
    if (o === m) continue;
    n += p.games * p.framings * p.trials * p.rounds * (o === 'self' || p.models.includes(o) ? 2 : 1);
  }
  return n;
}

function design(p: Plan, extra: string[], lines: Record<string, string>): string {
  const play = { rounds: `rounds: ${p.rounds}`, opponents: `opponents: [${p.opponents.join(', ')}]`, ...lines };
  return `name: fuzz-repeated\nsynthetic: true\nmodels:\n${p.models.map((m, i) => `  - { id: ${m}, provider: simulated, options: { reciprocity: ${i + 1} } }`).join('\n')}
games: [${['prisoners-dilemma', 'stag-hunt'].slice(0, p.games).join(', ')}]
framings: [${['{ id: jf, family: label-perturbation, labels: [J, F] }', '{ id: ab, family: label-perturbation, labels: [A, B] }'].slice(0, p.framings).join(', ')}]
trials: ${p.trials}\nscoring: sample\nplay:\n${[...Object.values(play), ...extra].map((l) => `  ${l}`).join('\n')}\n`;
}

export function repeatedCases(dir: string, seed: number, count: number): FuzzCase[] {
  const r = stream(seed);
  const cases: FuzzCase[] = [];
  for (let i = 0; i < count; i++) {
    const d = join(dir, `rep-${i}`);
    mkdirSync(d);
    const models = ['Sim-A', 'Sim-B'].slice(0, 1 + r.int(2));
    const opponents = [...new Set([r.pick(['self', ...models, ...STRATEGIES]), r.pick([...models, ...STRATEGIES]), ...(r.next() < 0.5 ? [r.pick(STRATEGIES)] : [])])];
    const real = r.next() < 0.3;
    const p: Plan = { models, games: 1 + r.int(2), framings: 1 + r.int(2), trials: 1 + r.int(3), rounds: real ? 2 + r.int(3) : r.pick([2, 10, 100, 1000]), opponents };
    const extra = [
      ...(r.next() < 0.5 ? [`history: ${r.pick(['akata', 'table', '{ template: "round {round}: {own} vs {other}" }'])}`] : []),
      ...(r.next() < 0.5 ? [`horizon: ${r.pick(['disclosed', 'hidden', '{ end_probability: 0.1 }'])}`] : []),
      ...(r.next() < 0.5 ? [`option_order: ${r.pick(['fixed', 'shuffle'])}`] : []),
      ...(r.next() < 0.3 ? ['personas: { 1: "You are careful.", 2: { id: bold, text: "You are bold." } }'] : []),
      ...(r.next() < 0.3 ? [`on_invalid: ${r.pick(['forfeit', '{ retry: 2 }'])}`] : []),
    ];
    const bad = r.next() < 0.35 ? r.pick(BAD) : undefined;
    const idle = !bad && models.length === 1 && r.next() < 0.15;
    const lines: Record<string, string> = bad ? { [bad[1].split(':')[0]]: bad[1] } : idle ? { opponents: `opponents: [${models[0]}]` } : {};
    const file = join(d, 'd.yaml'), store = join(d, 's.sqlite');
    writeFileSync(file, design(p, extra.filter((e) => !bad || e.split(':')[0] !== bad[1].split(':')[0]), lines));
    const want = decisions(p);
    cases.push({
      name: `run ${real ? '' : '--dry-run '}a fuzzed repeated design #${i} (${bad ? bad[0] : idle ? 'a model that plays no match' : `${p.rounds} rounds against ${opponents.join(', ')}`})`,
      argv: ['run', file, '--store', store, ...(real && !bad && !idle ? [] : ['--dry-run']), '-q'],
      outputs: [store],
      boundMs: 60_000,
      after: bad || idle ? mustRefuse(bad ? bad[0] : 'a model that plays no match', file) : undefined,
      accepted: bad || idle ? undefined : (o) => {
        if (!real) {
          const m = /dry run: \d+ matches × (\d+) rounds: (\d+) calls to make/.exec(o.stdout);
          return m && Number(m[1]) === p.rounds && Number(m[2]) === want ? [] : [`planned ${m ? m[2] : '?'} calls, the design has ${want}: ${o.stdout.slice(0, 200)}`];
        }
        const db = new Database(store, { readonly: true });
        const n = db.prepare("SELECT count(*) FROM trials WHERE status IN ('ok', 'invalid')").pluck().get() as number;
        const all = db.prepare('SELECT count(*) FROM trials').pluck().get() as number;
        db.close();
        // A forfeited match (an invalid answer under on_invalid: forfeit) ends early: at most the planned decisions, each at most once.
        return all <= want && n === all && all > 0 ? [] : [`stored ${all} decisions (${n} complete) of ${want} planned`];
      },
    });
  }
  return cases;
}
