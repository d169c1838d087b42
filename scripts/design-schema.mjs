// Writes data/designs/design.schema.json from the zod schema of designs (run after `npx tsc -p .`).
// test/live/design.test.ts fails when the committed file is not current.
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { designJsonSchema } from '../dist/live/design/schema.js';

const out = fileURLToPath(new URL('../data/designs/design.schema.json', import.meta.url));
writeFileSync(out, `${JSON.stringify(designJsonSchema(), null, 2)}\n`);
console.log(`wrote ${out}`);
