/**
 * Input surfaces a held-out hostile-input campaign broke after the readers' contract was in place
 * (property-based, fast-check): column and moderator names that are keys of Object.prototype,
 * and the other faults listed per describe block. Each property computes the expected side here,
 * apart from the reader.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { UserError } from '../../src/core/errors.js';
import { readEffects } from '../../src/sources/effects-csv.js';
import { meta } from '../../src/analyses/meta/index.js';

const tmp = mkdtempSync(join(tmpdir(), 'samegame-hardening-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** The message of what `f` throws: a UserError's, else the test fails on the other error. */
function refusal(f: () => unknown): string | undefined {
  try { f(); } catch (e) { if (e instanceof UserError) return e.message; throw e; }
  return undefined;
}

/** Names that are keys of every object: a lookup through a plain object finds something for them. */
const PROTOTYPE_KEYS = [...Object.getOwnPropertyNames(Object.prototype), '__proto__'];
const columnName = fc.oneof(fc.constantFrom(...PROTOTYPE_KEYS), fc.stringMatching(/^[a-z_][a-z0-9_]{0,11}$/));

describe('column names that are keys of Object.prototype', () => {
  it('an effect table\'s further column of any such name is read as a moderator with its values (property)', () => {
    const file = join(tmp, 'effects.csv');
    fc.assert(fc.property(columnName.filter((c) => !['study', 'model', 'game', 'yi', 'vi', 'n_base', 'n_alt', 'synthetic'].includes(c)),
      fc.array(fc.constantFrom('x', 'y', 'z'), { minLength: 2, maxLength: 5 }), (col, values) => {
        const rows = values.map((v, i) => `s${i},m,g,0.1,0.01,${v}`);
        writeFileSync(file, `study,model,game,yi,vi,${col}\n${rows.join('\n')}\n`);
        let table: ReturnType<typeof readEffects> | undefined;
        const m = refusal(() => { table = readEffects(file); });
        expect(m).toBeUndefined();
        expect(table!.moderators).toEqual([col]);
        expect(table!.rows.map((r) => Object.hasOwn(r.moderators, col) ? r.moderators[col] : undefined)).toEqual(values);
      }), { numRuns: 60 });
  });
});

describe('a manifest\'s moderator named like a key of Object.prototype', () => {
  const manifest = (key: string) => `moderators: [${JSON.stringify(key)}]
studies:
  - id: a
    data: rates.csv
    base: business
    alt: friend-sharing
    moderators: { ${JSON.stringify(key)}: x }
  - id: b
    data: rates.csv
    base: business
    alt: friend-sharing
    moderators: { ${JSON.stringify(key)}: y }
`;
  it('is read under its name, or (__proto__, which a record cannot hold) refused naming the field (property)', () => {
    fc.assert(fc.property(fc.constantFrom(...PROTOTYPE_KEYS), (key) => {
      let read: ReturnType<typeof meta.parseManifest> | undefined;
      const m = refusal(() => { read = meta.parseManifest(manifest(key), 'm.yaml'); });
      if (key === '__proto__') {
        expect(m).toMatch(/^m\.yaml:7: field "studies\[0\]\.moderators\.__proto__": the name __proto__ cannot name a moderator/);
      } else {
        expect(m).toBeUndefined();
        const own = read!.manifest.studies.map((st) => (Object.hasOwn(st.moderators!, key) ? st.moderators![key] : undefined));
        expect(own).toEqual(['x', 'y']);
      }
    }), { numRuns: 30 });
  });
});
