/**
 * The kind of every input is one tagged value (Source), read once from the flags; its entry in
 * SOURCES owns each per-kind decision. These are read here from the registry, the one place they
 * are defined.
 */
import { describe, expect, it } from 'vitest';
import { attenuationOf, DEFAULT_ATTENUATION, defaultPublished, SOURCES, sourceName, sourceOf, type Source } from '../../src/sources/input.js';
import { SHIPPED_PUBLISHED } from '../../src/sources/published.js';
import { SHIPPED_RATES } from '../../src/core/paths.js';
import { TWO_FRAMING_DEFAULTS } from '../../src/analyses/two-framing/index.js';
import { AUDIT_DEFAULTS } from '../../src/analyses/audit/index.js';

describe('sourceOf: the kind of an input, read once from the flags', () => {
  it('names each kind by the flags that were given', () => {
    expect(sourceOf({})).toEqual({ kind: 'rates', file: undefined });
    expect(sourceOf({ data: 'r.csv' })).toEqual({ kind: 'rates', file: 'r.csv' });
    expect(sourceOf({ trials: 't.csv' })).toMatchObject({ kind: 'trials', files: ['t.csv'] });
    expect(sourceOf({ trials: ['a.csv', 'b.csv'], format: 'fairgame' })).toMatchObject({ kind: 'log', files: ['a.csv', 'b.csv'], format: 'fairgame' });
    expect(sourceOf({ digitized: 'p.tar', layout: 'l.csv' })).toMatchObject({ kind: 'digitized', file: 'p.tar' });
    expect(sourceOf({ store: 's.sqlite', runId: 2 })).toEqual({ kind: 'store', file: 's.sqlite', runId: 2 });
  });
  it('names the input in messages: the file, a log\'s files in order, the shipped rates', () => {
    expect(sourceName(sourceOf({}))).toBe(SHIPPED_RATES);
    expect(sourceName(sourceOf({ trials: ['a.csv', 'b.csv'], format: 'akata' }))).toBe('a.csv, b.csv');
    expect(sourceName(sourceOf({ store: 's.sqlite' }))).toBe('s.sqlite');
  });
});

describe('SOURCES owns the per-kind decisions', () => {
  const kinds: Source[] = [
    { kind: 'rates', file: 'r.csv' }, { kind: 'trials', files: ['t.csv'], choice: {} },
    { kind: 'log', files: ['l.csv'], format: 'akata', choice: {} }, { kind: 'digitized', file: 'p.tar', choice: {} },
    { kind: 'store', file: 's.sqlite' },
  ];
  it('default attenuation: none (1) for direct observations, 0.70 for rates reconstructed from a figure', () => {
    expect(Object.fromEntries(kinds.map((s) => [s.kind, attenuationOf(s)]))).toEqual({ rates: 0.7, trials: 1, log: 1, digitized: 0.7, store: 1 });
    expect(Object.fromEntries(Object.entries(SOURCES).map(([k, e]) => [k, e.observed])))
      .toEqual({ rates: 'reconstructed', trials: 'direct', log: 'direct', digitized: 'reconstructed', store: 'direct', aggregates: 'direct' });
    // A given attenuation wins over the kind's default.
    expect(attenuationOf(kinds[0], 1)).toBe(1);
    expect(attenuationOf(kinds[1], 0.5)).toBe(0.5);
  });
  it('the paper\'s settings and the audit take the reconstruction\'s default from the same definition', () => {
    expect(TWO_FRAMING_DEFAULTS.attenuation).toBe(DEFAULT_ATTENUATION.reconstructed);
    expect(AUDIT_DEFAULTS.attenuation).toBe(DEFAULT_ATTENUATION.reconstructed);
  });
  it('default published values: the shipped paper tables for the shipped rates only', () => {
    expect(defaultPublished({ kind: 'rates' })).toBe(SHIPPED_PUBLISHED);
    expect(kinds.map(defaultPublished)).toEqual([undefined, undefined, undefined, undefined, undefined]);
  });
  it('the analyses a kind adds: a digitized figure\'s provenance, and nothing for the other kinds', () => {
    expect(Object.fromEntries(Object.entries(SOURCES).map(([k, e]) => [k, e.analyses])))
      .toEqual({ rates: [], trials: [], log: [], digitized: ['digitization'], store: [], aggregates: [] });
  });
});
