// Writes data/designs/enrichment.schema.json from the zod schema of context-enrichment designs
// (run after `npx tsc -p .`). test/live/enrichment.test.ts fails when the committed file is not current.
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { enrichmentJsonSchema } from '../dist/live/design/enrichment-schema.js';

const out = fileURLToPath(new URL('../data/designs/enrichment.schema.json', import.meta.url));
writeFileSync(out, `${JSON.stringify(enrichmentJsonSchema(), null, 2)}\n`);
console.log(`wrote ${out}`);
