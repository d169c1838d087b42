/**
 * A repeated run's trial store as RepeatedDecisions (src/core/decisions.ts): one decision per
 * stored LLM answer of the run (failed calls are not decisions; an invalid answer is one, with
 * action null), with the other seat's move in the same round, this seat's payoff, the match (shared
 * by both seats), the prompt and the answer. The repeated-game analysis reads only this.
 */
import { storeOrigin } from './origin.js';
import { sha256File } from '../core/hash.js';
import type { RepeatedDecision, RepeatedDecisions } from '../core/decisions.js';
import { UserError } from '../core/errors.js';
import { SIMULATED_SNAPSHOT } from '../live/providers/simulated.js';
import { RunPlays } from '../live/repeated/outcomes.js';
import { planMatches } from '../live/repeated/plan.js';
import type { Design } from '../live/design/types.js';
import { StoreFault, storeGuard } from '../live/store/integrity.js';
import { repeatedDesign, storedDesign } from '../live/store/stored-design.js';
import { chooseRun, isRepeatedRun } from './store.js';
import { readAdaptiveRun, type AdaptiveRun } from './adaptive-store.js';
import { existingStore } from '../live/store/open.js';
import type { RunInfo, TrialStore } from '../live/store/store.js';
import type { TrialRecord } from '../live/types.js';
import { controlCharacter } from './reader-rules.js';
import { sourcesMsg } from './messages.js';
import { scoredProbes, storedProbes } from '../live/probes/store.js';
import type { ScoredProbe } from '../live/probes/comprehension.js';

export interface RepeatedStoreOptions {
  /** The run to read (default: the store's only or latest run). */
  readonly run?: number;
  /** Check the whole store (integrity_check) first. */
  readonly verify?: boolean;
}

/** A decision row as samegame writes it: names without control characters, seat 1 or 2, round ≥ 1, a move when ok. */
function checkRow(t: TrialRecord): void {
  const p = t.play!;
  const where = `decision ${JSON.stringify([t.model, p.match, p.round, p.seat])}`;
  for (const [k, v] of [['model', t.model], ['game', t.game], ['framing', t.framing], ['opponent', p.opponent]] as const) {
    if (typeof v !== 'string' || v === '' || controlCharacter(v) !== undefined) throw new StoreFault(`${where}: ${k} is not a name`);
  }
  if (p.seat !== 1 && p.seat !== 2) throw new StoreFault(`${where}: seat is not 1 or 2`);
  if (!Number.isInteger(p.round) || p.round < 1 || !Number.isInteger(p.match) || p.match < 1) throw new StoreFault(
    `${where}: round or match is not a positive integer`);
  if (t.status === 'ok' && t.action !== 'C' && t.action !== 'D') throw new StoreFault(`${where}: an ok decision without a move`);
  if (t.status !== 'ok' && t.status !== 'invalid' && t.status !== 'error') throw new StoreFault(`${where}: unknown status`);
}

/**
 * Matches of the run's design not over in the store — not started, or stopped before the last
 * round without a forfeit (an invalid round ends a match): a run still going, or stopped.
 */
function unfinishedMatches(decisions: readonly RepeatedDecision[], design: Design): number {
  const rounds = design.play!.rounds;
  const last = new Map<string, { round: number; invalid: boolean }>();
  for (const d of decisions) {
    const m = last.get(d.match);
    if (!m || d.round > m.round) last.set(d.match, { round: d.round, invalid: d.action === null });
    else if (d.round === m.round && d.action === null) m.invalid = true;
  }
  let over = 0;
  for (const m of last.values()) if (m.round === rounds || m.invalid) over++;
  return planMatches(design).length - over;
}

/** A repeated run's decisions, and its stop rule with every unit's status when the run was adaptive. */
export interface RepeatedStoreDecisions extends RepeatedDecisions {
  readonly adaptive?: AdaptiveRun;
}

/** Matches an adaptive run started (some decision stored) and, of them, those not over: it plays only the waves its rule asks for. */
function unfinishedStarted(decisions: readonly RepeatedDecision[], design: Design): { open: number; started: number } {
  const started = new Set(decisions.map((d) => d.match)).size;
  return { open: unfinishedMatches(decisions, design) - (planMatches(design).length - started), started };
}

/** Read the repeated run of a store; UserError (one line) when the store or run is not one. */
export function readRepeatedStore(path: string, o: RepeatedStoreOptions = {}): RepeatedStoreDecisions {
  // opened as sources/open-run.ts's storeReader opens a store (read-only, a failure while reading: the store damaged)
  return storeGuard(path, (store) => repeatedDecisionsOf(store, path, chooseRun(store, path, o.run)),
    existingStore(path, { verify: o.verify, sqlite: 'damaged' }));
}

/** The decisions of a repeated run of an open store (`path` names it in messages); UserError when the run is not one. */
export function repeatedDecisionsOf(store: TrialStore, path: string, run: RunInfo): RepeatedStoreDecisions {
  if (!isRepeatedRun(run)) throw new UserError(sourcesMsg.notRepeated(path, run.id));
  const design = repeatedDesign(storedDesign(run)); // the resolved design, as the run stored it
  const plays = RunPlays.read(store, run);
  const decisions: RepeatedDecision[] = [];
  let simulated = false;
  for (const t of store.playTrials(run.id)) {
    if (!t.play) continue;
    checkRow(t);
    if (t.status === 'error') continue;
    simulated ||= t.modelSnapshot?.startsWith(SIMULATED_SNAPSHOT) === true;
    const out = plays.outcome(t);
    decisions.push({
      model: t.model, game: t.game, framing: t.framing, opponent: t.play.opponent, match: String(t.play.match),
      round: t.play.round, seat: t.play.seat, action: t.status === 'ok' ? t.action : null, opponentAction: out.opponentAction,
      ...(out.payoff === null ? {} : { payoff: out.payoff }),
      ...(Object.keys(t.factors).length > 0 ? { factors: t.factors } : {}),
      prompt: t.prompt, ...(t.text === null ? {} : { answer: t.text }),
    });
  }
  const sha256 = sha256File(path);
  const origin = storeOrigin(path, sha256, run, store);
  const synthetic = simulated || origin.synthetic; // the origin's flag holds the design's synthetic: true
  const adaptive = readAdaptiveRun(store, run);
  const open = adaptive ? unfinishedStarted(decisions, design) : { open: unfinishedMatches(decisions, design), started: 0 };
  const notes = open.open <= 0 ? [] : [adaptive ? sourcesMsg.unfinishedAdaptive(path, open.open, open.started)
    : sourcesMsg.unfinishedMatches(path, open.open, planMatches(design).length)];
  return { path, sha256, kind: 'repeated run', synthetic, origin, decisions, ...(notes.length ? { notes } : {}), ...(adaptive ? { adaptive } : {}),
    ...(design.names ? { names: design.names, namesBlock: sourcesMsg.designNames(path, run.id) } : {}) };
}

/** The answered comprehension probes of a run of an open store; [] when it asked none. */
export const probesOf = (store: TrialStore, run: RunInfo): ScoredProbe[] => scoredProbes(storedProbes(store, run.id));
