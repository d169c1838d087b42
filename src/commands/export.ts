/**
 * Trials out of a store, one record per trial, streamed (a store may hold a million trials):
 * JSONL with every stored field, or CSV with the analysis columns plus one column per factor.
 * Synthetic trials (simulated provider) say so in their own column. A stored value is data, not a
 * computed result: export writes it as stored, at full precision (README, "Numbers in the files").
 */
import { toCsv, type CsvValue } from '../render/csv.js';
import { opponentLabel } from '../core/decisions.js';
import { SIMULATED_SNAPSHOT } from '../live/providers/simulated.js';
import type { TrialStore } from '../live/store/store.js';
import type { TrialRecord } from '../live/types.js';
import { EXPORT_BASE, EXPORT_PLAY, EXPORT_TAIL, factorColumns } from '../sources/export-layout.js';
import { checkStoreLevels, isRepeatedRun } from '../sources/store.js';
import { designFacts } from '../analyses/compare/design-facts.js';
import { RunPlays } from '../live/repeated/outcomes.js';

export { factorColumns };

export type ExportFormat = 'jsonl' | 'csv' | 'parquet';

const BASE = EXPORT_BASE;
const PLAY = EXPORT_PLAY;
const TAIL = EXPORT_TAIL;

/** A measured latency at the microsecond its clock resolves (the stored double carries binary noise below it). */
const latency = (ms: number) => Math.round(ms * 1000) / 1000;
const isSynthetic = (t: TrialRecord) => t.modelSnapshot?.startsWith(SIMULATED_SNAPSHOT) === true;
const jsonOrText = (s: string | null): unknown => {
  if (s === null) return null;
  try { return JSON.parse(s) as unknown; } catch { return s; }
};

/**
 * Write the export in chunks through `write` (which may wait for the sink to drain).
 * Returns the number of trials written. A store whose levels no reader takes (a reserved name,
 * a control character) is refused before anything is written.
 */
export async function writeTrials(store: TrialStore, format: Exclude<ExportFormat, 'parquet'>,
  write: (chunk: string) => Promise<void>, runId?: number): Promise<number> {
  checkStoreLevels(store, runId); // what no reader takes is not exported either
  const designs = new Map(store.runs().map((r) => [r.id, r.designName]));
  const factors = store.factorNames(runId);
  const repeated = store.runs().filter((r) => (runId === undefined || r.id === runId) && isRepeatedRun(r));
  const plays = new Map(repeated.map((r) => [r.id, RunPlays.read(store, r)]));
  const header = [...BASE, ...factorColumns(factors), ...(plays.size > 0 ? PLAY : []), ...TAIL];
  const headerText = toCsv(header, []);
  if (format === 'csv') await write(headerText);
  let n = 0;
  let rows: CsvValue[][] = [];
  let lines: string[] = [];
  const flush = async () => {
    if (format === 'csv' && rows.length > 0) await write(toCsv(header, rows).slice(headerText.length));
    if (format === 'jsonl' && lines.length > 0) await write(`${lines.join('\n')}\n`);
    rows = [];
    lines = [];
  };
  // One run: its trials in the order of its design, as analyze lists its cells.
  const runs = store.runs().filter((r) => runId === undefined || r.id === runId);
  const order = runs.length === 1 ? designFacts(runs[0].designJson) : undefined;
  for (const t of store.trials(runId, order)) {
    n++;
    const design = designs.get(t.runId) ?? '';
    const o = plays.get(t.runId)?.outcome(t);
    if (format === 'csv') {
      rows.push([t.runId, design, t.model, t.game, t.framing, t.rep, ...factors.map((f) => t.factors[f] ?? ''),
        ...(plays.size > 0 ? [t.play?.match ?? '', t.play?.round ?? '', t.play?.seat ?? '', t.play ? opponentLabel({ model: t.model,
          opponent: t.play.opponent }) : '', t.play?.opponent ?? '', o?.opponentAction ?? '', o?.payoff ?? ''] : []),
        t.action ?? '', t.status, t.pCooperate === null ? '' : { numberText: String(t.pCooperate) }, t.text ?? '', t.modelSnapshot ?? '', t.inputTokens ?? '',
          t.outputTokens ?? '',
        t.latencyMs === null ? '' : latency(t.latencyMs), t.attempts, t.error ?? '', isSynthetic(t) ? 'true' : 'false']);
    } else {
      lines.push(JSON.stringify({
        run: t.runId, design, model: t.model, game: t.game, framing: t.framing, rep: t.rep, factors: t.factors,
        ...(t.play ? { match: t.play.match, round: t.play.round, seat: t.play.seat, opponent: opponentLabel({ model: t.model, opponent: t.play.opponent }),
          opponent_id: t.play.opponent,
          opponent_action: o?.opponentAction ?? null, payoff: o?.payoff ?? null } : {}),
        action: t.action, status: t.status, p_cooperate: t.pCooperate, text: t.text, model_snapshot: t.modelSnapshot,
        input_tokens: t.inputTokens, output_tokens: t.outputTokens, latency_ms: t.latencyMs === null ? null : latency(t.latencyMs), attempts: t.attempts,
        error: t.error, synthetic: isSynthetic(t), scoring: jsonOrText(t.scoring), prompt: t.prompt,
        request: jsonOrText(t.request), response: t.response,
      }));
    }
    if (rows.length + lines.length >= 1000) await flush();
  }
  await flush();
  return n;
}
