/**
 * The kind of a stored run is decided in one place (sources/store.ts runKind): the kind stored
 * with the run when the store has it, else inferred from the stored design and cells.
 */
import { describe, expect, it } from 'vitest';
import { runKind, type RunKind } from '../../src/sources/store.js';
import type { RunInfo } from '../../src/live/store/store.js';

const run = (design: unknown, kind?: RunKind): RunInfo => ({
  id: 1, designName: 'd', designHash: 'h', designJson: typeof design === 'string' ? design : JSON.stringify(design), toolVersion: '0', started: '',
  ...(kind ? { kind } : {}),
}) as RunInfo;
const never = (): readonly string[] => { throw new Error('the cells were read'); };

describe('runKind', () => {
  it('a stored kind is the answer, whatever the design says (repeated and enrichment without reading the cells)', () => {
    expect(runKind(run({ play: { rounds: 3 } }, 'one-shot'), () => [])).toBe('one-shot');
    expect(runKind(run({ models: [] }, 'enrichment'), never)).toBe('enrichment');
    expect(runKind(run({ models: [] }, 'repeated'), never)).toBe('repeated');
    // A run stored as one-shot whose cells carry the enrichment factors is analyzed as one (which then says what its design lacks).
    expect(runKind(run({ models: [] }, 'one-shot'), () => ['condition', 'format', 'world'])).toBe('enrichment');
  });
  it('without a stored kind: a design with a play block is repeated play (the cells are not read)', () => {
    expect(runKind(run({ play: { rounds: 3 } }), never)).toBe('repeated');
  });
  it('without a stored kind: cells carrying condition, world and format are a context-enrichment run', () => {
    expect(runKind(run({ models: [] }), () => ['condition', 'format', 'world'])).toBe('enrichment');
    expect(runKind(run({ models: [] }), () => ['condition', 'persona', 'format', 'world'])).toBe('enrichment');
    // Two of the three are not enough, and a repeated design's cells are never asked.
    expect(runKind(run({ models: [] }), () => ['condition', 'world'])).toBe('one-shot');
    expect(runKind(run({ models: [] }), () => [])).toBe('one-shot');
  });
  it('a stored design that is not a JSON object reads as one-shot; an unknown stored kind is inferred', () => {
    expect(runKind(run('not json'), () => [])).toBe('one-shot');
    expect(runKind(run('null'), () => [])).toBe('one-shot');
    expect(runKind(run({ play: {} }, 'bogus' as RunKind), never)).toBe('repeated');
  });
});
