import { describe, expect, it } from 'vitest';
import { reproduceTables } from '../../../src/commands/reproduce.js';
import { namedAnalysis, table2Rows, table3Rows } from '../../../src/analyses/two-framing/index.js';
import { displayNames } from '../../../src/core/display-names.js';
import { stat } from '../../../src/core/names.js';

/** The display view of a two-framing analysis (--names on reproduce): the same numbers under the names. */
describe('namedAnalysis', () => {
  const a = reproduceTables({ reps: 200 }).analysis;

  it('every statistic of an id is the statistic of its name; rows keep their numbers', () => {
    const n = namedAnalysis(a, displayNames([['GPT-4', 'G4'], ['Stag Hunt', 'SH'], ['business', 'B']]));
    expect(n.layout.models).toEqual(['GPT-3.5', 'G4', 'LLaMa-2']);
    expect(n.settings.base).toBe('B');
    expect(n.boot.get(stat('R', 'G4'))).toEqual(a.boot.get(stat('R', 'GPT-4')));
    expect(n.boot.get(stat('R2', 'G4', 'SH'))).toEqual(a.boot.get(stat('R2', 'GPT-4', 'Stag Hunt')));
    expect(n.boot.indexOf(stat('shift', 'Pooled'))).toBe(a.boot.indexOf(stat('shift', 'Pooled')));
    expect(n.boot.names).toContain(stat('R', 'G4'));
    expect(table3Rows(n).map((r) => r.R)).toEqual(table3Rows(a).map((r) => r.R));
    expect(table2Rows(n).map((r) => [r.model, r.game])).toContainEqual(['G4', 'SH']);
  });

  it('names that would merge two levels, or take a reserved row name, leave the analysis by its ids', () => {
    expect(namedAnalysis(a, displayNames([['GPT-4', 'GPT-3.5']]))).toBe(a);
    expect(namedAnalysis(a, displayNames([['GPT-4', 'X'], ['LLaMa-2', 'X']]))).toBe(a);
    expect(namedAnalysis(a, displayNames([['GPT-4', 'Pooled']]))).toBe(a);
    expect(namedAnalysis(a, undefined)).toBe(a);
  });
});
