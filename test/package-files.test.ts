/**
 * What `npm pack` puts in the package (package.json "files"): the built code and its launcher,
 * the shipped data `reproduce` reads, the docs and the provider example; no tests, sources,
 * benchmarks or committed outputs. Installing the tarball in an empty folder and running
 * `npx samegame reproduce` there was checked by hand (it needs the registry for the
 * dependencies); this test reads npm's own list of the files, offline.
 */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { ROOT } from './helpers/cli.js';

describe('the npm package', () => {
  it('holds dist, bin, data, docs and examples, and no test, source, bench or output file', () => {
    const r = spawnSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });
    expect(r.status, r.stderr).toBe(0);
    const files = (JSON.parse(r.stdout) as { files: { path: string }[] }[])[0].files.map((f) => f.path);
    for (const f of ['bin/samegame.js', 'dist/cli/main.js', 'dist/index.js', 'dist/index.d.ts', 'data/lore-heydari-2024/rates.csv',
      'data/lore-heydari-2024/published.csv', 'data/akata-2023/experiment_pd.csv', 'data/designs/design.schema.json', 'README.md', 'LICENSE']) {
      expect(files, f).toContain(f);
    }
    const top = new Set(files.map((f) => f.split('/')[0]));
    expect([...top].sort()).toEqual(['CITATION.cff', 'LICENSE', 'README.md', 'bin', 'data', 'dist', 'docs', 'examples', 'package.json']);
    expect(files.filter((f) => f.endsWith('.tsbuildinfo'))).toEqual([]);
  }, 60_000);
});
