/**
 * User-facing messages of batch runs (`samegame run --batch`, `samegame batches`), as functions
 * taking plain values.
 */
const q = (s: string) => JSON.stringify(s);

export const batchMsg = {
  tableDamaged: (file: string, detail: string) => `${file}: the batch table is damaged or not one samegame wrote (${detail})`,
  notBatchable: (model: string, provider: string, ok: readonly string[]) =>
    `model ${q(model)}: provider ${q(provider)} has no batch API (batch runs: ${ok.join(', ')})`,
  lineTooLarge: (key: string, bytes: number, max: number) =>
    `trial ${key}: its request is ${bytes} bytes, more than a batch file may hold (${max})`,
  badBatchSize: (n: number, max: number) => `--batch-size: ${n} is more than a batch file may hold (${max})`,
  apiFailed: (what: string, reason: string) => `batch API: ${what} failed (${reason})`,
  chunkPrepared: (chunk: number, model: string, lines: number, bytes: number) =>
    `chunk ${chunk} (${model}): ${lines} requests, ${bytes} bytes, written`,
  chunkUploaded: (chunk: number, fileId: string) => `chunk ${chunk}: uploaded as ${fileId}`,
  chunkCreated: (chunk: number, batchId: string, reattached: boolean) =>
    `chunk ${chunk}: ${reattached ? 're-attached to' : 'created'} batch ${batchId}`,
  chunkStatus: (chunk: number, status: string, done: number, failed: number, total: number) =>
    `chunk ${chunk}: ${status}, ${done}/${total} requests done${failed > 0 ? `, ${failed} failed` : ''}`,
  strayAnswers: (chunk: number, batch: string, unknown: number, duplicate: number) =>
    `chunk ${chunk} (batch ${batch}): ${[unknown > 0 ? `${unknown} answer${unknown === 1 ? '' : 's'} for ids not in the chunk` : '', duplicate > 0 ? `${duplicate} further answer${duplicate === 1 ? '' : 's'} for ids already answered` : ''].filter(Boolean).join(' and ')} not stored (each trial is stored once, from its first answer)`,
  chunkCollected: (chunk: number, status: string, stored: number, pending: number) =>
    `chunk ${chunk}: ${status}; ${stored} trials stored, ${pending} left pending`,
  plan: (design: string, runId: number, total: number, done: number, inBatches: number, toSend: number) =>
    `batch run ${runId} of ${q(design)}: ${total} trials, ${done} already stored, ${inBatches} in open batches, ${toSend} to send`,
  submitted: (open: number) =>
    `${open} batch${open === 1 ? '' : 'es'} open; the results are collected when the same command runs again`,
  stillPending: (n: number) =>
    `${n} trials are still pending (failed lines or expired batches); run the same command again to send them`,
  dryRun: (files: number, lines: number, total: number, stored: number, inBatches: number, inTok: number, outTok: number, cost: string) =>
    [`dry run (batch): ${files} file${files === 1 ? '' : 's'}, ${lines} requests (${total} trials, ${stored} already stored, ${inBatches} in open batches)`,
      `estimated tokens: ${inTok} input (≈ characters / 4), ${outTok} output (at most max tokens per call)`,
      `estimated cost at batch prices: ${cost}`].join('\n'),
  repeatedDryRun: (matches: number, rounds: number) =>
    `${matches} matches × ${rounds} rounds: each round its own batch files (one or more per model), sent when the round before is collected`,
  noChunks: (store: string) => `${store}: no batches`,
  cancelled: (n: number) => `cancel requested for ${n} open batch${n === 1 ? '' : 'es'}`,
};
