/**
 * The newest input surfaces held to the readers' contract (property-based, fast-check): names
 * files and display names, ids with control characters (manifests, effect tables), story
 * templates, special files, the kind of a design, the attenuation and headers that are not
 * comma-separated. Each property says what must be refused (one line naming file, line and field,
 * no raw control character) and what must be read; the expected side is computed here, apart from
 * the reader.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { UserError } from '../../src/core/errors.js';
import { readDisplayNames } from '../../src/sources/names-file.js';
import { displayNames, shown } from '../../src/core/display-names.js';
import { meta } from '../../src/analyses/meta/index.js';
import { readEffects } from '../../src/sources/effects-csv.js';
import { loadDesign, parseDesign } from '../../src/live/design/design.js';
import { templateSource, MAX_TEMPLATE_BYTES } from '../../src/live/design/framings.js';
import { checkAttenuation } from '../../src/core/attenuation.js';
import { parseAttenuationFlag } from '../../src/cli/options.js';
import { readRates } from '../../src/sources/rates-csv.js';
import { loadLogFormat } from '../../src/sources/logs/description.js';

const tmp = mkdtempSync(join(tmpdir(), 'samegame-readers-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** The message of what `f` throws: a UserError's, else the test fails on the other error. */
function refusal(f: () => unknown): string | undefined {
  try { f(); } catch (e) { if (e instanceof UserError) return e.message; throw e; }
  return undefined;
}

// eslint-disable-next-line no-control-regex
const RAW_CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029]/;
const controlChar = fc.oneof(fc.integer({ min: 0, max: 0x1f }), fc.integer({ min: 0x7f, max: 0x9f }), fc.constantFrom(0x2028, 0x2029))
  .map((c) => String.fromCharCode(c));
const q = (s: string) => JSON.stringify(s);

describe('display names: two ids of one kind never show as one name', () => {
  const ids = fc.constantFrom('a', 'b', 'c', 'd');
  it('refused naming both ids exactly when two shown names coincide (property)', () => {
    fc.assert(fc.property(fc.uniqueArray(ids, { minLength: 1, maxLength: 4 }), fc.uniqueArray(ids, { maxLength: 4 }),
      fc.array(fc.tuple(ids, fc.constantFrom('a', 'b', 'c', 'd', 'X', 'Y')), { maxLength: 6 }), (models, games, pairs) => {
        const given = displayNames(pairs);
        const targets = { model: models, game: games };
        // The independent check: a kind whose ids, shown, are not all distinct.
        const clash = Object.values(targets).some((list) => new Set(list.map((id) => shown(given, id))).size < list.length);
        const m = refusal(() => readDisplayNames({ given, targets, warn: () => undefined }));
        expect(m !== undefined).toBe(clash);
        if (m !== undefined) {
          expect(m.split('\n')).toHaveLength(1);
          const [, a, , b] = /(\w+) "(\w)" \(.*\) and \1 "(\w)" \(/.exec(m) ?? [];
          expect(a !== undefined && b !== undefined && a !== b).toBe(true);
        }
      }), { numRuns: 300 });
  });
});

const manifest = (id: string, mod: string) => `studies:
  - id: ${q(id)}
    data: rates.csv
    base: business
    alt: friend-sharing
    moderators: { source: ${q(mod)} }
`;

describe('control characters in ids: the readers\' one name rule', () => {
  const printable = fc.string({ minLength: 1, maxLength: 12 }).filter((s) => !RAW_CONTROL.test(s) && !/[\ufffe\uffff]/.test(s) && s.trim() !== '');
  it('a manifest\'s study id or moderator value with a control character: one line naming file, line and field (property)', () => {
    fc.assert(fc.property(printable, fc.nat(12), controlChar, fc.boolean(), (name, at, c, inId) => {
      const bad = `${name.slice(0, at)}${c}${name.slice(at)}`;
      const m = refusal(() => meta.parseManifest(inId ? manifest(bad, 'x') : manifest('s', bad), 'm.yaml'));
      expect(m).toBeDefined();
      expect(m!.split('\n')).toHaveLength(1);
      expect(m).toMatch(inId ? /^m\.yaml:2: field "studies\[0\]\.id": / : /^m\.yaml:6: field "studies\[0\]\.moderators\.source": /);
      expect(m).toContain(`U+${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`);
    }), { numRuns: 100 });
  });
  it('printable study ids and moderator values are read as written (property)', () => {
    fc.assert(fc.property(printable, printable, (id, mod) => {
      const { manifest: m } = meta.parseManifest(manifest(id, mod), 'm.yaml');
      expect([m.studies[0].id, m.studies[0].moderators?.source]).toEqual([id, mod]);
    }), { numRuns: 100 });
  });
  it('an effect table\'s moderator value with a control character: file, line and the moderator\'s column (property)', () => {
    const file = join(tmp, 'effects.csv');
    fc.assert(fc.property(fc.integer({ min: 0, max: 2 }), controlChar.filter((c) => !/[\n\r"]/.test(c)), (row, c) => {
      const rows = ['a', 'b', 'c'].map((s, i) => `${s},m,g,0.1,0.01,${i === row ? `v${c}w` : 'v'}`);
      writeFileSync(file, `study,model,game,yi,vi,kind\n${rows.join('\n')}\n`);
      const m = refusal(() => readEffects(file));
      expect(m).toMatch(new RegExp(`:${row + 2}: field "kind": contains the control character`));
    }), { numRuns: 40 });
  });
});

const design = (framing: string) => `name: t
models: [{ id: M, provider: simulated }]
games: [prisoners-dilemma]
framings:
  - business
${framing}
trials: 1
`;
const TEMPLATE = 'A story.\n{payoffs}\nChoose {C} or {D}.';

describe('story templates', () => {
  it('a control character other than tab and line ends is refused naming the framing\'s field; never printed raw (property)', () => {
    fc.assert(fc.property(fc.nat(TEMPLATE.length), controlChar.filter((c) => !/[\t\n\r]/.test(c)), (at, c) => {
      const text = `${TEMPLATE.slice(0, at)}${c}${TEMPLATE.slice(at)}`;
      const m = refusal(() => parseDesign(design(`  - { id: story, template: ${q(text)} }`), 'd.yaml'));
      expect(m).toBeDefined();
      expect(m!.split('\n')).toHaveLength(1);
      expect(m).toMatch(/^d\.yaml:6: field "framings\[1\]\.template": the template holds the control character U\+/);
    }), { numRuns: 100 });
  });
  it('tabs and line ends are read', () => {
    expect(parseDesign(design(`  - { id: story, template: ${q(`\t${TEMPLATE}\r\n`)} }`), 'd.yaml').framings[1].template).toContain('\t');
  });
  it('a template over 1 MiB inline, a Latin-1 template file: one problem each', () => {
    const big = `${'x'.repeat(MAX_TEMPLATE_BYTES)}${TEMPLATE}`;
    expect(refusal(() => parseDesign(design(`  - { id: story, template: ${q(big)} }`), 'd.yaml')))
      .toMatch(/d\.yaml:6: field "framings\[1\]\.template": the template is 1,048,\d+ bytes; a template is at most 1,048,576 bytes/);
    writeFileSync(join(tmp, 'latin1.txt'), Buffer.from(`Caf\xe9 story.\n{payoffs}\n{C} {D}`, 'latin1'));
    expect(templateSource(undefined, 'latin1.txt', join(tmp, 'd.yaml')))
      .toEqual({ problem: 'the template file "latin1.txt" is not valid UTF-8 (save it as UTF-8)' });
  });
  it('a prompt that its placeholders expand past 8 Mi characters is refused naming the framing and the game', () => {
    const text = `${'{payoffs}'.repeat(30_000)} {C} {D}`; // 270 KB of template; some 10 M characters of prompt
    const m = refusal(() => parseDesign(design(`  - { id: story, template: ${q(text)} }`), 'd.yaml'));
    expect(m).toMatch(/^d\.yaml:6: field "framings\[1\]\.template": framing story: its prompt for game prisoners-dilemma is [\d,]+ characters; /);
    expect(m).toContain('a prompt is at most 8,388,608');
  });
});

describe('the kind of a design: one line naming the kind and the first wrong field', () => {
  const ENRICHMENT_ONLY = ['scenario', 'actions', 'payoffs', 'template', 'base', 'conditions', 'worlds', 'registered_direction', 'formats'];
  it('a one-shot design with a field of a context-enrichment design (property)', () => {
    fc.assert(fc.property(fc.subarray(ENRICHMENT_ONLY, { minLength: 1 }), (fields) => {
      const text = `${design('')}${fields.map((f) => `${f}: 1`).join('\n')}\n`;
      const m = refusal(() => parseDesign(text, 'd.yaml'));
      expect(m!.split('\n')).toHaveLength(1);
      expect(m).toContain(`d.yaml:8: field "${fields[0]}": a design without kind: is a one-shot or repeated design, which has no ${fields[0]} field`);
    }), { numRuns: 60 });
  });
  it('an unknown kind, and a context-enrichment kind over a one-shot design (property)', () => {
    fc.assert(fc.property(fc.stringMatching(/^[a-z][a-z-]{0,15}$/).filter((s) => !['context-enrichment', 'true', 'false', 'null'].includes(s)), (kind) => {
      const m = refusal(() => parseDesign(`kind: ${kind}\n${design('')}`, 'd.yaml'));
      expect(m).toBe(`d.yaml:1: field "kind": ${q(kind)} is not a design kind `
        + '(kind: context-enrichment; a one-shot design has no kind: field, nor has a repeated one, which has a play: block)');
    }), { numRuns: 60 });
    expect(refusal(() => parseDesign(`kind: context-enrichment\n${design('')}`, 'd.yaml')))
      .toMatch(/^d\.yaml:4: field "games": a context-enrichment design \(kind: context-enrichment\) has no games field[^\n]*$/);
  });
});

describe('attenuation: 0.01 to 1 wherever it is read', () => {
  const values = fc.oneof(fc.double({ noNaN: false }), fc.double({ min: 0, max: 1.1 }), fc.constantFrom(0, 1e-300, 5e-324, 0.00999, 0.01, 1, 1.0000001, -0));
  it('the flag, the library and the manifest take a value exactly when 0.01 <= a <= 1 (property)', () => {
    fc.assert(fc.property(values, (a) => {
      const ok = Number.isFinite(a) && a >= 0.01 && a <= 1;
      const flag = (() => { try { parseAttenuationFlag()(String(a)); return true; } catch { return false; } })();
      expect(flag).toBe(ok);
      expect(refusal(() => checkAttenuation(a)) === undefined).toBe(ok);
      if (Number.isFinite(a)) {
        const text = `${manifest('s', 'x')}    attenuation: ${String(a)}\n`;
        expect(refusal(() => meta.parseManifest(text, 'm.yaml')) === undefined).toBe(ok);
      }
    }), { numRuns: 300 });
  });
});

describe('a header that is not comma-separated', () => {
  const column = fc.stringMatching(/^[a-z][a-z_]{0,8}$/);
  it('separated by semicolons or tabs: refused naming the separator and listing the columns (property)', () => {
    fc.assert(fc.property(fc.uniqueArray(column, { minLength: 2, maxLength: 6 }), fc.constantFrom([';', 'semicolons'], ['\t', 'tabs']), (cols, [sep, word]) => {
      const file = join(tmp, 'sep.csv');
      writeFileSync(file, `${cols.join(sep)}\n${cols.map(() => '1').join(sep)}\n`);
      const m = refusal(() => readRates(file));
      expect(m).toContain(`the header separates its columns by ${word} (${cols.map(q).join(', ')})`);
    }), { numRuns: 40 });
  });
  it('any other first line without a comma is never quoted back (a file that is no CSV) (property)', () => {
    const secretish = fc.string({ minLength: 3, maxLength: 60 }).filter((s) => !/[,;\t|\n\r"]/.test(s) && /[:/@#!]/.test(s) && !RAW_CONTROL.test(s));
    fc.assert(fc.property(secretish, (line) => {
      const file = join(tmp, 'no.csv');
      writeFileSync(file, `${line}\nmore\n`);
      for (const read of [() => readRates(file), () => readEffects(file)]) {
        const m = refusal(read);
        expect(m).toBeDefined();
        expect(m).not.toContain(line.trim());
      }
    }), { numRuns: 60 });
  });
});

describe('text that is not UTF-8 (a Latin-1 file) is refused, never read with U+FFFD', () => {
  it('a design file and a log-format description with a Latin-1 byte on any line (property)', () => {
    const lines = fc.array(fc.stringMatching(/^[a-z# ]{0,20}$/), { minLength: 1, maxLength: 8 });
    fc.assert(fc.property(lines, fc.nat(), fc.integer({ min: 0x80, max: 0xff }), (texts, at, byte) => {
        const i = at % texts.length;
        const line = (l: string, j: number) => Buffer.concat([Buffer.from(`# ${l}`), j === i ? Buffer.from([byte]) : Buffer.alloc(0), Buffer.from('\n')]);
        const bytes = Buffer.concat(texts.map(line));
        const file = join(tmp, 'latin1.yaml');
        writeFileSync(file, bytes);
        expect(refusal(() => loadDesign(file))).toBe(`${file}: the design is not valid UTF-8 (save it as UTF-8)`);
        expect(refusal(() => loadLogFormat(file))).toBe(`${file}:${i + 1}: the text is not valid UTF-8 (save the file as UTF-8)`);
      }), { numRuns: 60 });
  });
});
