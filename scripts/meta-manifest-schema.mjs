// Writes data/meta/manifest.schema.json from the zod schema of meta-analysis manifests (run after `npx tsc -p .`).
// test/commands/meta-manifest.test.ts fails when the committed file is not current.
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { meta } from '../dist/analyses/meta/index.js';

const out = fileURLToPath(new URL('../data/meta/manifest.schema.json', import.meta.url));
writeFileSync(out, `${JSON.stringify(meta.manifestJsonSchema(), null, 2)}\n`);
console.log(`wrote ${out}`);
