/**
 * Gemini's logprobsResult → the stored probability of C, against the contract of docs/methods.md
 * §13 restated here from the text (not from src/live/scoring/): candidates whose trimmed,
 * upper-cased token is a non-empty prefix of the C word count for C (the C word first), then the D
 * word; u = max(0, 1 − Σ returned); P = t/(t+r); one action missing → its mass imputed as u/2;
 * neither, or t + r = 0 → invalid. Candidate sets are generated (fast-check), including sets that
 * miss an action, and written as the API writes them: proto3 JSON, which omits a zero
 * logProbability. The readers of both vendors' answers are also fuzzed: any
 * input is read or refused as `malformed`, never anything else.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readAnthropic } from '../../src/live/providers/anthropic.js';
import { readGemini } from '../../src/live/providers/gemini.js';
import { scoreResponse } from '../../src/live/scoring/score.js';
import { ProviderError } from '../../src/live/types.js';
import { model, spec } from '../helpers/trial-specs.js';

const WORDS = ['COOP', 'DEFECT'] as const;

/** docs/methods.md §13, restated. */
function contract(cands: readonly { token: string; p: number }[]): number | null {
  let t = 0, r = 0, returned = 0, hasC = false, hasD = false;
  const names = (tok: string, w: string) => tok.trim() !== '' && w.startsWith(tok.trim().toUpperCase());
  for (const c of cands) {
    returned += c.p;
    if (names(c.token, WORDS[0])) { t += c.p; hasC = true; } else if (names(c.token, WORDS[1])) { r += c.p; hasD = true; }
  }
  const u = Math.max(0, 1 - returned);
  if ((!hasC && !hasD) || t + r === 0) return null;
  if (hasC && hasD) return t / (t + r);
  return hasC ? t / (t + u / 2) : (u / 2) / (u / 2 + r);
}

const C_TOKENS = ['C', 'CO', 'coop', ' Coo', 'COOP\n', 'c'];
const D_TOKENS = ['D', 'DE', 'defect', ' Def', 'DEFEC', 'd '];
const OTHER = ['', ' ', '\n', 'X', 'COOPERATE', 'DEFECTS', 'I', '**', 'The'];

const candidateSet = fc.constantFrom('both', 'onlyC', 'onlyD', 'neither', 'any').chain((mode) => {
  const pool = mode === 'onlyC' ? [...C_TOKENS, ...OTHER] : mode === 'onlyD' ? [...D_TOKENS, ...OTHER]
    : mode === 'neither' ? OTHER : [...C_TOKENS, ...D_TOKENS, ...OTHER];
  const tok = fc.oneof(fc.constantFrom(...pool), ...(mode === 'any' ? [fc.string({ maxLength: 4 })] : []));
  const musts = mode === 'both' ? [fc.constantFrom(...C_TOKENS), fc.constantFrom(...D_TOKENS)]
    : mode === 'onlyC' ? [fc.constantFrom(...C_TOKENS)] : mode === 'onlyD' ? [fc.constantFrom(...D_TOKENS)] : [];
  return fc.tuple(fc.tuple(...musts), fc.array(tok, { maxLength: 8 }), fc.double({ min: 0.05, max: 1, noNaN: true }))
    .chain(([must, rest, mass]) => {
      const tokens = [...must, ...rest];
      return fc.array(fc.double({ min: 0.001, max: 1, noNaN: true }), { minLength: tokens.length, maxLength: tokens.length })
        .map((w) => {
          const sum = w.reduce((a, b) => a + b, 0) || 1;
          // Returned mass `mass` spread over the tokens; occasionally one token holds it all (logProbability 0).
          return tokens.map((token, i) => ({ token, p: tokens.length === 1 && mass > 0.95 ? 1 : (w[i] / sum) * mass }));
        });
    });
});

/** A generateContent answer as the API writes it (proto3 JSON: zero and empty fields left out). */
function wire(cands: readonly { token: string; p: number }[]): Record<string, unknown> {
  const c = cands.map(({ token, p }) => {
    const lp = Math.log(p);
    // proto3 JSON leaves out a zero logProbability; a token is always written (a candidate without one is refused, test/live/response-contract.test.ts).
    return { token, ...(lp === 0 ? {} : { logProbability: lp }) };
  });
  return {
    candidates: [{ content: { parts: [{ text: 'COOP' }], role: 'model' }, finishReason: 'STOP', logprobsResult: { topCandidates: [{ candidates: c }], chosenCandidates: c.slice(0, 1) } }],
    usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 1 }, modelVersion: 'gemini-x',
  };
}

describe('Gemini first-token alternatives → the stored P(C)', () => {
  const s = spec(model('gemini'), 0, 'logprobs');
  it('equals the contract on generated candidate sets, including sets that miss an action', () => {
    let missing = 0, invalid = 0;
    fc.assert(fc.property(candidateSet, (cands) => {
      const body = wire(cands);
      const raw = JSON.stringify(body);
      const sc = scoreResponse(s, { ...readGemini(body, raw), raw, request: {} });
      const want = contract(cands);
      if (want === null) { invalid++; expect([sc.status, sc.pCooperate]).toEqual(['invalid', null]); return; }
      if (JSON.parse(sc.scoring!).imputed !== 'none') missing++;
      expect(sc.status).toBe('ok');
      expect(sc.pCooperate!).toBeCloseTo(want, 12);
    }), { numRuns: 400, seed: 25 });
    // The generator reaches both branches the contract singles out.
    expect(missing).toBeGreaterThan(50);
    expect(invalid).toBeGreaterThan(20);
  });

  it('by hand: C missing, r = 0.5, u = 0.4 → P = 0.2/0.7; a lone token with logProbability left out has probability 1', () => {
    const body = wire([{ token: 'DE', p: 0.5 }, { token: 'X', p: 0.1 }]);
    const sc = scoreResponse(s, { ...readGemini(body, JSON.stringify(body)), raw: '', request: {} });
    expect(sc.pCooperate!).toBeCloseTo(0.2 / 0.7, 14);
    const one = readGemini({ candidates: [{ logprobsResult: { topCandidates: [{ candidates: [{ token: 'COOP' }] }] } }] }, '');
    expect(one.firstTokenTopLogprobs).toEqual([{ token: 'COOP', logprob: 0 }]);
    // A prompt blocked before any candidate is an answer without text (an invalid trial), not a failure; thoughts are not the answer.
    expect(readGemini({ promptFeedback: { blockReason: 'SAFETY' } }, '').text).toBe('');
    expect(readGemini({ candidates: [{ content: { parts: [{ text: 'let me think', thought: true }, { text: 'COOP' }] } }] }, '').text).toBe('COOP');
  });
});

describe('the readers of both vendors read or refuse any input, never throwing anything but malformed', () => {
  const ok = (read: (json: unknown, raw: string) => unknown) => (v: unknown) => {
    try { read(v, JSON.stringify(v) ?? ''); } catch (e) {
      expect(e).toBeInstanceOf(ProviderError);
      expect((e as ProviderError).kind).toBe('malformed');
    }
  };
  const mutated = (base: Record<string, unknown>) => fc.record({ k: fc.constantFrom(...Object.keys(base)), v: fc.jsonValue() })
    .map(({ k, v }) => ({ ...base, [k]: v }));
  it('gemini: arbitrary JSON and answers with one field replaced', () => {
    fc.assert(fc.property(fc.oneof(fc.jsonValue(), mutated(wire([{ token: 'CO', p: 0.4 }]))), ok(readGemini)), { numRuns: 300, seed: 25 });
  });
  it('anthropic: arbitrary JSON and messages with one field replaced', () => {
    const msg = { id: 'm', type: 'message', role: 'assistant', model: 'claude', content: [{ type: 'text', text: 'COOP' }], usage: { input_tokens: 1, output_tokens: 1 } };
    fc.assert(fc.property(fc.oneof(fc.jsonValue(), mutated(msg)), ok(readAnthropic)), { numRuns: 300, seed: 25 });
  });
});
