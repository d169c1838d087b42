/**
 * Replay of a stored run (docs/methods.md §25): every trial's prompt re-rendered from the stored
 * design and compared byte for byte with the stored prompt, its request record re-rendered and
 * compared with the stored request, and its raw response re-read and re-scored by today's parser
 * (a decision that changes is listed). No key, no network: nothing is called.
 */
import { canonicalJson } from '../design/design.js';
import type { Design } from '../design/types.js';
import { prepareSession } from '../runner/session.js';
import { plannedRequest } from '../runner/runner.js';
import { scoreResponse, type Scored } from '../scoring/score.js';
import type { RunInfo, TrialStore } from '../store/store.js';
import { storedDesign } from '../store/stored-design.js';
import type { ProviderResponse, TrialRecord, TrialSpec } from '../types.js';
import { PROVIDER_REPLAYS } from './renderers.js';
import { replayMsg } from './messages.js';

export type ReplayKind = 'design' | 'prompt' | 'request' | 'decision';

export interface ReplayDifference {
  readonly kind: ReplayKind;
  /** The trial (model|game|framing|rep), or the run for a design difference. */
  readonly trial: string;
  readonly detail: string;
}

export interface TrialsReplay {
  readonly trials: number;
  /** Trials whose request (or prompt) could not be re-rendered here: repeated-game decisions, providers without a renderer. */
  readonly notRendered: number;
  readonly notReread: number;
  readonly differences: readonly ReplayDifference[];
}

export type Scorer = (spec: TrialSpec, res: ProviderResponse) => Scored;

/** A JSON text in canonical form (keys sorted); a text that is not JSON as it is. */
function canonicalText(text: string): string {
  try { return canonicalJson(JSON.parse(text)); } catch { return text; }
}

const keyOf = (t: { model: string; game: string; framing: string; rep: number }) => `${t.model}|${t.game}|${t.framing}|${t.rep}`;

/** Where two texts first differ, for the report. */
function firstDifference(stored: string, now: string): string {
  let i = 0;
  while (i < stored.length && i < now.length && stored[i] === now[i]) i++;
  const show = (s: string) => JSON.stringify(s.slice(Math.max(0, i - 20), i + 40));
  return replayMsg.differsAt(i, show(stored), show(now));
}

/** Today's decision of a stored answer, compared with the stored one; undefined when they agree. */
function decisionChange(t: TrialRecord, spec: TrialSpec, score: Scorer): string | undefined {
  const replay = PROVIDER_REPLAYS[spec.model.provider];
  let now: Scored;
  try {
    const read = replay.read(t.response!);
    now = score(spec, { ...read, raw: t.response!, request: {} });
  } catch (e) {
    return replayMsg.readerRefuses(e instanceof Error ? e.message : String(e));
  }
  if (now.status === t.status && now.action === t.action && now.pCooperate === t.pCooperate) return undefined;
  const show = (s: string, a: string | null) => `${s}${a === null ? '' : ` ${a}`}`;
  return replayMsg.decisionChanged(show(t.status, t.action), show(now.status, now.action), now.reason);
}

/** Replay every trial of a run. */
export function replayTrials(store: TrialStore, run: RunInfo, score: Scorer = scoreResponse): TrialsReplay {
  // the stored design as its one reader reads it (a copy: preparing a session may fill in defaults)
  const session = prepareSession(structuredClone(storedDesign(run)) as Design, {});
  const differences: ReplayDifference[] = [];
  if (session.hash !== run.designHash) differences.push({ kind: 'design', trial: `run ${run.id}`, detail: replayMsg.designHash() });
  const specs = new Map(session.specs.map((s) => [keyOf({ model: s.model.id, game: s.game, framing: s.framing, rep: s.rep }), s]));
  let trials = 0, notRendered = 0, notReread = 0;
  for (const t of store.trials(run.id)) {
    trials++;
    const key = keyOf(t);
    if (t.play !== undefined) { notRendered++; notReread++; continue; }
    const spec = specs.get(key);
    if (spec === undefined) { differences.push({ kind: 'prompt', trial: key, detail: replayMsg.noSuchTrial() }); continue; }
    if (t.prompt !== spec.prompt) differences.push({ kind: 'prompt', trial: key, detail: firstDifference(t.prompt, spec.prompt) });
    const replay = PROVIDER_REPLAYS[spec.model.provider];
    // An errored trial keeps the parameters of the call it planned (no request was answered): compared as canonical JSON,
    // since the stored design gives its decoding block in sorted key order.
    const stored = t.status === 'error' ? canonicalText(t.request) : t.request;
    const request = t.status === 'error' ? canonicalText(plannedRequest(spec)) : replay ? JSON.stringify(replay.request(spec)) : undefined;
    if (request === undefined) notRendered++;
    else if (request !== stored) differences.push({ kind: 'request', trial: key, detail: firstDifference(stored, request) });
    if (t.status === 'error' || t.response === null) continue;
    if (!replay) { notReread++; continue; }
    const change = decisionChange(t, spec, score);
    if (change !== undefined) differences.push({ kind: 'decision', trial: key, detail: change });
  }
  return { trials, notRendered, notReread, differences };
}
