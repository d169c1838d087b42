/**
 * The one placeholder rule (src/live/prompts/template.ts): hand-written cases, and properties over
 * arbitrary text — the parser never throws, a fault names a line of the text, and a parse is an
 * exact reading of the text (escaping its literal parts and writing its placeholders back gives
 * the text again).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fillParts, parseTemplate, placeholdersOf, templateProblem, type ParsedTemplate, type TemplatePart } from '../../../src/live/prompts/template.js';
import { HISTORY_PLACEHOLDERS } from '../../../src/live/repeated/history.js';
import { FRAMING_PLACEHOLDERS } from '../../../src/live/prompts/index.js';

const KNOWN = ['C', 'D', 'you.CC', 'own_payoff'];
const escape = (s: string) => s.replace(/\{/g, '{{').replace(/\}/g, '}}');
/** The parts of a parse (undefined for a fault). */
const partsOf = (t: ParsedTemplate) => ('parts' in t ? t.parts : undefined);
const unparse = (parts: readonly TemplatePart[]) => parts.map((p) => ('text' in p ? escape(p.text) : `{${p.name}}`)).join('');

describe('the placeholder rule', () => {
  it('reads placeholders, dotted names and escaped braces', () => {
    const t = parseTemplate('a {C} {{b}} {you.CC}}}', KNOWN);
    expect(t.fault).toBeUndefined();
    expect(partsOf(t)).toEqual([{ text: 'a ' }, { name: 'C' }, { text: ' {b} ' }, { name: 'you.CC' }, { text: '}' }]);
    expect(fillParts(partsOf(t)!, { C: 'Help', 'you.CC': 3 })).toBe('a Help {b} 3}');
  });

  it.each([
    ['{own_payoff:.2f}', /\{own_payoff:\.2f\} is not a placeholder/],
    ['round {', /unclosed brace at "\{"/],
    ['{round\n}', /unclosed brace/],
    ['a } b', /a stray "\}"/],
    ['{nope}', /unknown placeholder \{nope\} \(known: \{C\} \{D\} \{you\.CC\} \{own_payoff\}\)/],
    ['{you.XY}', /unknown placeholder \{you\.XY\}/],
  ])('refuses %j', (text, message) => {
    const t = parseTemplate(text, KNOWN);
    expect(t.fault?.message).toMatch(message);
  });

  it('an unknown placeholder near a known one is asked about: {payoff} → did you mean {payoffs}?', () => {
    const known = [...KNOWN, 'payoffs'];
    expect(parseTemplate('{payoff}', known).fault?.message).toBe(
      'unknown placeholder {payoff} (known: {C} {D} {you.CC} {own_payoff} {payoffs}); did you mean {payoffs}?');
    expect(parseTemplate('{Own_Payoff}', known).fault?.message).toMatch(/; did you mean \{own_payoff\}\?$/);
    // Nothing near: no question.
    expect(parseTemplate('{nope}', known).fault?.message).not.toContain('did you mean');
  });

  it('names the template line of a fault in a template of several lines', () => {
    expect(templateProblem('one {C}\ntwo\nthree {x}', KNOWN, true)).toMatch(/^template line 3: unknown placeholder \{x\}/);
    expect(templateProblem('one {x}', KNOWN, true)).toMatch(/^unknown placeholder/);
  });

  it('a template with no placeholder is refused where one is needed: {{own}} is a literal {own}', () => {
    expect(templateProblem('In round {{round}} you chose {{own}}', HISTORY_PLACEHOLDERS, true)).toMatch(/has no placeholder/);
    expect(templateProblem('Plain fact.', KNOWN, false)).toBeUndefined();
    expect(templateProblem('{round}: {own}', HISTORY_PLACEHOLDERS, true)).toBeUndefined();
  });

  it('never throws; a fault is on a line of the text; a parse reads the text exactly', () => {
    const text = fc.oneof(fc.string({ maxLength: 60 }), fc.array(fc.constantFrom('{', '}', '{{', '}}', '{C}', '{you.CC}', '{x}', 'a', '\n', ':', '.', ' '), { maxLength: 20 }).map((a) => a.join('')));
    fc.assert(fc.property(text, (s) => {
      const t = parseTemplate(s, KNOWN);
      if (t.fault) {
        expect(t.fault.line).toBeGreaterThanOrEqual(1);
        expect(t.fault.line).toBeLessThanOrEqual(s.split('\n').length);
        return;
      }
      expect(unparse(t.parts)).toBe(s);
      for (const n of placeholdersOf(t.parts)) expect(KNOWN).toContain(n);
    }), { numRuns: 2000 });
  });

  it('any text, escaped, is one literal part equal to it', () => {
    fc.assert(fc.property(fc.string({ maxLength: 80 }), (s) => {
      const t = parseTemplate(escape(s), FRAMING_PLACEHOLDERS);
      expect(t.fault).toBeUndefined();
      expect(fillParts(partsOf(t)!, {})).toBe(s);
      expect(placeholdersOf(partsOf(t)!)).toEqual([]);
    }), { numRuns: 1000 });
  });
});
