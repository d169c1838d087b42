/**
 * Comprehension probes (docs/methods.md §18c): under a framing's story, questions of the form "if
 * you choose X and the other player chooses Y, how many points do you (does the other player)
 * get?" — the 8 of a 2×2 game (4 outcomes × 2 players). A model × game × framing cell is asked N
 * of them: the 8 in a seeded random order, again in a new order for the next 8, and so on, so
 * every outcome and both players are asked as soon as N ≥ 8. Each probe is a TrialSpec of its own
 * (its context carries the question and the expected answer), answered by any provider and never
 * part of a decision cell.
 */
import { streamFor } from '../../stats/rng.js';
import type { Design } from '../design/design.js';
import { modelSpec } from '../design/models.js';
import { framingStory } from '../prompts/framing.js';
import type { Action, Decoding, Game, TrialSpec } from '../types.js';

export interface ProbeQuestion {
  /** Outcome XY: X the asked player's action, Y the other's. */
  readonly outcome: `${Action}${Action}`;
  /** Whose points the question asks for. */
  readonly player: 'you' | 'other';
}

/** The 8 questions in a fixed order: outcomes CC, CD, DC, DD, yours then the other's. */
export const PROBE_QUESTIONS: readonly ProbeQuestion[] = (['CC', 'CD', 'DC', 'DD'] as const)
  .flatMap((outcome) => (['you', 'other'] as const).map((player) => ({ outcome, player })));

/** The points a question's answer must give in a game. */
export function expectedAnswer(game: Game, q: ProbeQuestion): number {
  const [x, y] = [q.outcome[0] as Action, q.outcome[1] as Action];
  return game.payoffs[x][y][q.player === 'you' ? 0 : 1];
}

/** The questions of one cell, in its seeded order: `n` of them, the 8 shuffled again for every 8. */
export function probeOrder(n: number, seed: number, key: string): ProbeQuestion[] {
  const g = streamFor(seed, `probes\u0000${key}`);
  const out: ProbeQuestion[] = [];
  while (out.length < n) {
    const block = [...PROBE_QUESTIONS];
    for (let i = block.length - 1; i > 0; i--) {
      const j = Math.floor(g.next() * (i + 1));
      [block[i], block[j]] = [block[j], block[i]];
    }
    out.push(...block.slice(0, n - out.length));
  }
  return out;
}

/** The question's words with the framing's labels. */
export function probeQuestion(q: ProbeQuestion, labels: readonly [string, string]): string {
  const label = (a: string) => (a === 'C' ? labels[0] : labels[1]);
  const whose = q.player === 'you' ? 'how many points do you get' : 'how many points does the other player get';
  return `Question: if you choose ${label(q.outcome[0])} and the other player chooses ${label(q.outcome[1])}, ${whose}? Answer with a number only.`;
}

/** Output tokens a probe may use at least: a decision's max tokens (often 1) could cut a number such as -12 short. */
export const PROBE_MIN_TOKENS = 16;

/** A model's decoding for its probes: its own, with max tokens raised to PROBE_MIN_TOKENS when set lower. */
export function probeDecoding(d: Decoding): Decoding {
  return d.maxTokens !== undefined && d.maxTokens < PROBE_MIN_TOKENS ? { ...d, maxTokens: PROBE_MIN_TOKENS } : d;
}

/** What the simulated provider and the scorer read of a probe. */
export interface ProbeContext extends ProbeQuestion {
  readonly expected: number;
}

/**
 * The probes of a one-shot or repeated design: model × game × framing × n, in that order, each the
 * framing's story (as a repeated game tells it, without the decision's question) and one question.
 */
export function expandProbes(design: Design, n: number): TrialSpec[] {
  const out: TrialSpec[] = [];
  for (const m of design.models) {
    const model = modelSpec(m);
    for (const game of design.games) {
      for (const f of design.framings) {
        const story = framingStory(f, game);
        probeOrder(n, m.decoding.seed ?? 0, `${m.id}\u0000${game.id}\u0000${f.id}`).forEach((q, rep) => {
          const probe: ProbeContext = { ...q, expected: expectedAnswer(game, q) };
          out.push({
            model, game: game.id, framing: f.id, rep, factors: {},
            prompt: `${story}\n\n${probeQuestion(q, f.labels)}`,
            labels: {}, actionWords: [f.labels[0], f.labels[1]],
            decoding: probeDecoding(m.decoding), scoring: 'sample',
            context: { game, framing: f.id, factors: {}, probe },
          });
        });
      }
    }
  }
  return out;
}
