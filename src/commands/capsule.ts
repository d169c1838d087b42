/**
 * `samegame capsule STORE --out DIR`: a self-contained folder a reviewer verifies with no key and
 * no network — the store (store.sqlite), the run's design (design.json, as stored), the sealed plan
 * (plan.json, when the store is sealed), the outputs (outputs/: the analysis's tables and verdicts),
 * a README and the SHA-256 manifest; `npx samegame replay DIR/store.sqlite --capsule DIR` verifies it.
 */
import { sealedRun, storedDesign } from '../sources/store.js';
import { storeReader } from '../sources/open-run.js';
import { storeGuard } from '../live/store/integrity.js';
import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { OutputFile } from '../core/atomic.js';
import { UserError } from '../core/errors.js';
import type { Logger } from '../core/logger.js';
import { toolInfo } from '../core/paths.js';
import { readSeal } from '../live/store/seal.js';
import { storeOutputs } from './pipeline/store-analysis.js';
import { finish } from './pipeline/write.js';
import { MANIFEST, manifestText } from './sha256-manifest.js';
import { commandsMsg } from './messages.js';
import { analyzeMsg } from '../core/messages/analyze.js';

export interface CapsuleOptions {
  readonly store: string;
  /** The capsule folder: new, or empty. */
  readonly out: string;
  readonly logger?: Logger;
}

function readme(name: string, sealed: { sha: string; at: string } | undefined): string {
  return `# Replay capsule: ${name}

Written by samegame ${toolInfo().version}. Everything needed to check the study's numbers, with no API
key and no network call:

- \`store.sqlite\`: the trial store (every prompt, request, raw response and decision);
- \`design.json\`: the design the run was made from, as the store keeps it;
${sealed ? `- \`plan.json\`: the preregistration plan sealed before the first trial (SHA-256 ${sealed.sha}, sealed ${sealed.at});\n` : ''}\
- \`outputs/\`: the analysis's tables${sealed ? ' and verdicts (reports/verdicts.csv)' : ''};
- \`${MANIFEST}\`: the SHA-256 of every file (\`sha256sum -c ${MANIFEST}\` checks it too).

Verify (after \`npm ci\` in a checkout of samegame, or with samegame installed):

    npx samegame replay store.sqlite --capsule .

Replay re-renders every prompt and request from the stored design and compares them byte for byte
with the stored ones, re-reads every raw response with today's parser, recomputes the analysis and
compares it with outputs/, and checks the manifest. It exits 0 only if everything agrees.
`;
}

/** Write the capsule; returns its folder. */
export async function capsule(o: CapsuleOptions): Promise<string> {
  if (existsSync(o.out) && readdirSync(o.out).length > 0) throw new UserError(commandsMsg.capsuleExists(o.out));
  const store = join(o.out, 'store.sqlite');
  // The store is opened as every reader opens it (storeReader: read-only, its failures one line) and closed once the backup is done.
  const { design, name, runId, seal } = await storeGuard(o.store, async (source) => {
    const seal = readSeal(source.database);
    const run = sealedRun(source, o.store, seal);
    if (!run) throw new UserError(analyzeMsg.noValidTrials(o.store));
    const design = storedDesign(run);
    mkdirSync(o.out, { recursive: true });
    // SQLite's online backup: a consistent copy even of a store a run is writing (its -wal included).
    await source.database.backup(store);
    return { design, name: run.designName, runId: run.id, seal };
  }, storeReader(o.store));
  // Beside the store: the design, the plan, the analysis's tables and verdicts, the README, and the manifest of them all, written as one set.
  const dir = resolve(o.out);
  const analysis = await storeOutputs({ kind: 'store', file: store, runId }, { out: join(dir, 'outputs'), figures: false });
  const files: OutputFile[] = [
    { path: join(dir, 'design.json'), content: `${JSON.stringify(design, null, 2)}\n` },
    ...(seal ? [{ path: join(dir, 'plan.json'), content: `${JSON.stringify(JSON.parse(seal.planJson), null, 2)}\n` }] : []),
    ...analysis.files,
    { path: join(dir, 'README.md'), content: readme(name, seal && { sha: seal.planSha256, at: seal.sealed }) },
  ];
  return finish({ result: o.out, files: [...files, { path: join(dir, MANIFEST), content: manifestText(dir, files) }],
    print: (logger) => logger.info(commandsMsg.capsuleWrote(o.out)) }, { logger: o.logger });
}
