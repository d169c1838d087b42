// Writes data/log-formats/log-format.schema.json from the zod schema of log formats (run after `npx tsc -p .`).
// test/sources/logs/description.test.ts fails when the committed file is not current.
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { logFormatJsonSchema } from '../dist/sources/logs/schema.js';

const out = fileURLToPath(new URL('../data/log-formats/log-format.schema.json', import.meta.url));
writeFileSync(out, `${JSON.stringify(logFormatJsonSchema(), null, 2)}\n`);
console.log(`wrote ${out}`);
