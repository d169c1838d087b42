import { describe, expect, it } from 'vitest';
import { checkExamples, codeExamples, pagesWithExamples } from '../helpers/library-examples.js';

/**
 * Every TypeScript (and JavaScript) example of the documentation type-checks against the library
 * (`samegame` = dist/index.d.ts, built from src/index.ts; strict) and runs, offline, in a fresh folder, writing only under
 * out/ (test/helpers/library-examples.ts); an example marked `ts typecheck-only` is only
 * type-checked. The two fixture pages show that the test can fail. One type check serves every
 * page (it reads the library's declarations once).
 */
const FIXTURES = ['test/fixtures/library/broken.md', 'test/fixtures/library/does-not-run.md'];
const pages = pagesWithExamples();
const checked = checkExamples([...pages, ...FIXTURES]);
const of = async (page: string) => {
  const r = await checked;
  const on = (f: { where: string }) => f.where === page || f.where.startsWith(`${page}:`);
  return { typeErrors: r.typeErrors.filter(on), runFailures: r.runFailures.filter(on), other: r.typeErrors.filter((f) => ![...pages, ...FIXTURES].some((p) => f.where.startsWith(p))) };
};
const LONG = 120_000;

describe("the documentation's library examples type-check and run", () => {
  it('the library reference and the provider guide hold examples', () => {
    expect(pages).toEqual(expect.arrayContaining(['docs/reference/library.md', 'docs/guides/write-a-provider.md']));
  });
  it.each(pages)('%s', async (page) => {
    const r = await of(page);
    expect(r.other).toEqual([]);
    expect(r.typeErrors).toEqual([]);
    expect(r.runFailures).toEqual([]);
  }, LONG);
});

describe('an example that does not work fails the test', () => {
  it('a function the library does not export, an option a command does not take: type errors at their lines', async () => {
    const r = await of(FIXTURES[0]);
    expect(r.typeErrors).toEqual([
      { where: 'test/fixtures/library/broken.md:14', problem: `TS2724: '"samegame"' has no exported member named 'analyse'. Did you mean 'analyze'?` },
      { where: 'test/fixtures/library/broken.md:24', problem: expect.stringMatching(/^TS2353: .*'repetitions' does not exist in type 'ReproduceCommandOptions'/) },
    ]);
    // Run, the first example passes and the second stops the page (the typecheck-only one is not run).
    expect(r.runFailures).toEqual([{ where: 'test/fixtures/library/broken.md:13', problem: expect.stringMatching(/^exit 1: SyntaxError: .*does not provide an export named 'analyse'/) }]);
  }, LONG);

  it('an example that throws fails at its line with the error, the ones after it do not run; a file written outside out/ is named', async () => {
    const r = await of(FIXTURES[1]);
    expect(r.typeErrors).toEqual([]);
    expect(r.runFailures).toEqual([
      { where: 'test/fixtures/library/does-not-run.md:13', problem: 'exit 1: UserError: data/no-such-study/rates.csv: cannot read the file (ENOENT)' },
      { where: 'test/fixtures/library/does-not-run.md', problem: 'written outside out/: table.csv' },
    ]);
  }, LONG);

  it('ts and js fences are examples; typecheck-only ones are not run; other fences are text', () => {
    const md = ['```ts', 'a()', '```', '', '```sh', 'echo', '```', '```js typecheck-only', 'b()', '```', '```text', 'c', '```'].join('\n');
    expect(codeExamples(md)).toEqual([{ line: 1, lang: 'ts', code: 'a()', run: true }, { line: 8, lang: 'js', code: 'b()', run: false }]);
  });
});
