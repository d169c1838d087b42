/**
 * The match browser of a log: its decisions record no prompt, so the page does not invite a click;
 * each move carries where it was read (file:line and the label as written), shown on hover.
 * A direct run's decisions (with prompts) keep the click.
 */
import { describe, expect, it } from 'vitest';
import type { RepeatedDecision, RepeatedDecisions } from '../../../src/core/decisions.js';
import { analyzeRepeatedPlay } from '../../../src/analyses/repeated/analysis.js';
import { matchBrowserSection } from '../../../src/analyses/repeated/report.js';
import type { MatchBrowserBlock } from '../../../src/render/match-browser.js';

const log: RepeatedDecision[] = [1, 2].map((round) => ({ model: 'A', game: 'pd', framing: 'f', opponent: 'B', match: 'm1', round, seat: 1, action: 'C', opponentAction: 'D',
  provenance: { file: 'x.csv', line: round + 1, label: 'J' } }));
const source = (decisions: RepeatedDecision[]): RepeatedDecisions => ({ path: 'x.csv', sha256: '0', kind: 'test log', synthetic: false, decisions });

function section(decisions: RepeatedDecision[]) {
  const s = matchBrowserSection(analyzeRepeatedPlay(decisions, { seed: 1, reps: 20 }), source(decisions));
  const text = (s.blocks[0] as { text: string }).text;
  return { text, browser: s.blocks[1] as MatchBrowserBlock };
}

describe('the match browser of a log', () => {
  it('says the moves are not clickable and gives each its file, line and label', () => {
    const { text, browser } = section(log);
    expect(text).not.toMatch(/Click a move/);
    expect(text).toMatch(/read from a log, which records no prompt or answer/);
    const [round1, round2] = browser.cells[0].matches[0].rounds;
    expect(round1[1]).toEqual({ player: 'A', action: 'C', source: 'x.csv:2, written J' });
    expect(round2[1].source).toBe('x.csv:3, written J');
    expect(round1[2]).toEqual({ player: 'B', action: 'D' }); // the other seat: a move recorded by seat 1's row, no decision of its own
  });
  it('a direct run keeps the click', () => {
    expect(section(log.map((d) => ({ ...d, provenance: undefined, prompt: 'p', answer: 'J.' }))).text).toMatch(/Click a move to see the prompt/);
  });
});
