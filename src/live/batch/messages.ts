/**
 * The user-facing messages used only in live/batch/, as functions of plain values (the convention of
 * core/messages/: wording in one place, tests compare with the same text).
 */
import { q } from '../../core/messages/text.js';

export const liveBatchMsg = {
  tableDamaged: (file: string, detail: string) => `${file}: the batch table is damaged or not one samegame wrote (${detail})`,
  notBatchable: (model: string, provider: string, ok: readonly string[]) =>
    `model ${q(model)}: provider ${q(provider)} has no batch API (batch runs: ${ok.join(', ')})`,
  lineTooLarge: (key: string, bytes: number, max: number) =>
    `trial ${key}: its request is ${bytes} bytes, more than a batch file may hold (${max})`,
  apiFailed: (what: string, reason: string) => `batch API: ${what} failed (${reason})`,
  chunkPrepared: (chunk: number, model: string, lines: number, bytes: number) =>
    `chunk ${chunk} (${model}): ${lines} requests, ${bytes} bytes, written`,
  chunkUploaded: (chunk: number, fileId: string) => `chunk ${chunk}: uploaded as ${fileId}`,
  chunkCreated: (chunk: number, batchId: string, reattached: boolean) =>
    `chunk ${chunk}: ${reattached ? 're-attached to' : 'created'} batch ${batchId}`,
  chunkStatus: (chunk: number, status: string, done: number, failed: number, total: number) =>
    `chunk ${chunk}: ${status}, ${done}/${total} requests done${failed > 0 ? `, ${failed} failed` : ''}`,
  strayAnswers: (chunk: number, batch: string, unknown: number, duplicate: number) =>
    `chunk ${chunk} (batch ${batch}): ${[unknown > 0 ? `${unknown} answer${unknown === 1 ? '' : 's'} for ids not in the chunk` : '',
      duplicate > 0 ? `${duplicate} further answer${duplicate === 1 ? '' : 's'} for ids already answered` : ''].filter(Boolean).join(
        ' and ')} not stored (each trial is stored once, from its first answer)`,
  chunkCollected: (chunk: number, status: string, stored: number, pending: number) =>
    `chunk ${chunk}: ${status}; ${stored} trials stored, ${pending} left pending`,
  earlierProbes: (n: number, ownProbes: boolean) => `${n} comprehension probe${n === 1 ? '' : 's'} asked by an earlier run (--probes) wait in open `
    + `batches: collected ${ownProbes ? 'with this run\'s' : 'by this run'}, never sent again`,
  waitingInBatches: (file: string, trials: number, probes: number) =>
    `${file}: ${[trials > 0 ? `${trials} trial${trials === 1 ? '' : 's'}` : '', probes > 0 ? `${probes} comprehension probe${probes === 1 ? '' : 's'}` : '']
      .filter(Boolean).join(' and ')} of this run wait in batches not yet collected, and this run sends nothing as batches: `
      + 'run again with --batch to collect them (samegame batches lists them)',
  plan: (design: string, runId: number, total: number, done: number, inBatches: number, toSend: number) =>
    `batch run ${runId} of ${q(design)}: ${total} trials, ${done} already stored, ${inBatches} in open batches, ${toSend} to send`,
};
