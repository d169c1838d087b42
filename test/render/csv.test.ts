import { describe, expect, it } from 'vitest';
import { neutralize, toCsv } from '../../src/render/csv.js';

// OWASP "CSV Injection": a text cell that a spreadsheet would read as a formula starts with
// = + - @ (or tab / carriage return); prefixing an apostrophe makes it plain text.
describe('neutralize (CSV formula injection)', () => {
  it.each([
    ['=HYPERLINK("http://x","y")', `'=HYPERLINK("http://x","y")`],
    ['+1+cmd|calc', `'+1+cmd|calc`],
    ['-2+3', `'-2+3`],
    ['@SUM(A1:A2)', `'@SUM(A1:A2)`],
    ['\tTAB', `'\tTAB`],
    ['\rCR', `'\rCR`],
  ])('%j becomes %j', (input, want) => {
    expect(neutralize(input)).toBe(want);
  });

  it.each(['GPT-4', 'Stag Hunt', 'a=b', 'x-y', 'mail@host', ''])('leaves %j alone (the trigger must be first)', (s) => {
    expect(neutralize(s)).toBe(s);
  });
});

describe('toCsv', () => {
  it('numbers are written as numbers: a negative shift keeps its sign and gets no apostrophe', () => {
    expect(toCsv(['model', 'shift'], [['A', -0.1], ['B', 0.25]])).toBe('model,shift\nA,-0.1\nB,0.25\n');
  });

  it('a model name that is a formula is neutralized, then quoted because it holds a quote and a comma', () => {
    expect(toCsv(['model', 'R'], [['=HYPERLINK("http://x","y")', 1]]))
      .toBe(`model,R\n"'=HYPERLINK(""http://x"",""y"")",1\n`);
  });

  it('a text cell that looks like a negative number is text and is neutralized', () => {
    expect(toCsv(['note'], [['-5']])).toBe(`note\n'-5\n`);
  });

  it('RFC 4180 quoting of commas, quotes and newlines; NaN written empty', () => {
    expect(toCsv(['a', 'b', 'c'], [['x,y', 'say "hi"', NaN], ['line\nbreak', 'ok', 3]]))
      .toBe('a,b,c\n"x,y","say ""hi""",\n"line\nbreak",ok,3\n');
  });
});

describe('mdCell', () => {
  it('escapes pipes, backslashes and newlines so a name cannot break a Markdown table', async () => {
    const { mdCell } = await import('../../src/render/markdown.js');
    expect(mdCell('A | B')).toBe('A \\| B');
    expect(mdCell('a\\|b')).toBe('a\\\\\\|b');
    expect(mdCell('two\nlines')).toBe('two lines');
  });
});

describe('toCsv edge cases (hand-written expectations)', () => {
  it('a header-only table is one line', async () => {
    const { toCsv } = await import('../../src/render/csv.js');
    expect(toCsv(['a', 'b'], [])).toBe('a,b\n');
  });
  it('quotes commas and edge spaces, neutralizes formula text but not numbers', async () => {
    const { toCsv } = await import('../../src/render/csv.js');
    expect(toCsv(['a'], [[' x'], ['-1'], [-1], ['a,b'], ['say "hi"']])).toBe('a\n" x"\n\'-1\n-1\n"a,b"\n"say ""hi"""\n');
  });
});
