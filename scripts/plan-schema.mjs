// Writes data/plans/plan.schema.json from the zod schema of preregistration plans (run after `npx tsc -p .`).
// test/commands/preregister.test.ts fails when the committed file is not current.
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { preregistration } from '../dist/analyses/preregistration/index.js';

const out = fileURLToPath(new URL('../data/plans/plan.schema.json', import.meta.url));
writeFileSync(out, `${JSON.stringify(preregistration.planJsonSchema(), null, 2)}\n`);
console.log(`wrote ${out}`);
