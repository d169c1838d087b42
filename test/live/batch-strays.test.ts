/**
 * Batch answers the vendor should not have sent — a second answer for an id already answered, an
 * answer for an id the chunk never held — are not stored (each trial once, never billed twice)
 * and not dropped without a word: a warning names the chunk, the batch and the counts. Against
 * the loopback server of the OpenAI Files and Batches wire format.
 */
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startBatchLoopback } from '../helpers/loopback-batch.js';
import { cleanEnv, runCli } from '../helpers/cli.js';
import { cellAnswer, SENTINEL } from '../helpers/batch-run.js';

const dir = mkdtempSync(join(tmpdir(), 'samegame-batch-strays-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('batch answers for duplicate or unknown ids', () => {
  it('are not stored, and a warning names the chunk and the counts', async () => {
    const srv = await startBatchLoopback({
      answer: cellAnswer,
      // The first answer again with the other word, and an answer for an id never sent.
      outputLines: (lines) => {
        const again = JSON.parse(lines[0]) as { custom_id: string };
        const stray = { ...JSON.parse(lines[0]), custom_id: 'samegame-never-sent' };
        return [...lines, JSON.stringify({ ...JSON.parse(lines[0]), id: 'dup' }).replace(/"text":"[^"]*"/, '"text":"other"'), JSON.stringify(stray), JSON.stringify({ ...JSON.parse(lines[1]), custom_id: again.custom_id })];
      },
    });
    try {
      const design = join(dir, 'd.yaml');
      writeFileSync(design, 'name: strays\nmodels:\n  - { id: A, provider: openai-responses }\ngames: [prisoners-dilemma]\nframings: [business]\ntrials: 4\n');
      const store = join(dir, 's.sqlite');
      const r = await runCli(['run', design, '--store', store, '--base-url', srv.url, '--model', 'loop', '--batch', '--poll', '0.01'],
        { env: cleanEnv({ OPENAI_API_KEY: SENTINEL }) });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toMatch(/^warning: chunk 1 \(batch [^)]+\): 1 answer for ids not in the chunk and 2 further answers for ids already answered not stored \(each trial is stored once, from its first answer\)$/m);
      const db = new Database(store, { readonly: true });
      const rows = db.prepare('SELECT rep, status, text FROM trials ORDER BY rep').all() as { rep: number; status: string; text: string }[];
      db.close();
      expect(rows).toHaveLength(4);
      expect(rows.every((x) => x.text !== 'other')).toBe(true);
    } finally { await srv.close(); }
  }, 30_000);
});
