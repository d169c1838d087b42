/**
 * A design on a store, made ready to run: the CLI's override flags applied, the trials expanded,
 * the run identity computed. The identity is the design hash of what answers and what is asked
 * (provider, model name, prompts, decoding, scoring …) but not of where the server is: a base URL
 * is an address, so a local server moved to another port resumes the same run.
 */
import { toolInfo } from '../../core/paths.js';
import { designKind } from '../store/run-kind.js';
import { canonicalJson, designHash, expandDesign, pricesFor, type Design } from '../design/design.js';
import type { Prices } from './plan.js';
import { publicBaseUrl } from '../providers/wire.js';
import type { TrialSpec } from '../types.js';
import { capabilityProblems } from '../design/capabilities.js';
import { UserError } from '../../core/errors.js';
import { runnerMsg } from './messages.js';
import { expandProbes } from '../probes/questions.js';

export interface Overrides {
  readonly provider?: string;
  readonly baseUrl?: string;
  readonly model?: string;
}

/** The design with the override flags applied to every model. */
export function applyOverrides(d: Design, o: Overrides): Design {
  if (o.provider === undefined && o.baseUrl === undefined && o.model === undefined) return d;
  return {
    ...d,
    models: d.models.map((m) => ({
      ...m,
      ...(o.provider === undefined ? {} : { provider: o.provider }),
      ...(o.baseUrl === undefined ? {} : { baseUrl: o.baseUrl }),
      ...(o.model === undefined ? {} : { model: o.model }),
    })),
  };
}

export interface Session {
  readonly design: Design;
  readonly specs: TrialSpec[];
  readonly hash: string;
  /** The design as stored with the run (base URLs without credentials). */
  readonly json: string;
  readonly prices: (s: TrialSpec) => Prices | undefined;
  /** The comprehension probes of the run (design `probes:` or `run --probes`), asked before the decisions; [] when none. */
  readonly probes: TrialSpec[];
}

/** `file` names the design in the refusal of a --provider that cannot run it (capabilities.ts). */
export function prepareSession(design: Design, o: Overrides, flagPrices?: Prices, file: string = design.name): Session {
  const d = applyOverrides(design, o);
  const refused = o.provider === undefined ? undefined : capabilityProblems(d.models, d.scoring)[0];
  if (refused) throw new UserError(runnerMsg.overrideRefused(file, `--provider ${o.provider}`, refused.message));
  // Neither where the server is nor whether the calls go as a batch changes what is asked.
  // Nor whether probes are asked: they are trials of their own kind, so adding them later resumes the run.
  const located = { ...d, probes: undefined, models: d.models.map((m) => ({ ...m, baseUrl: undefined, batch: undefined })) };
  const stored = { ...d, models: d.models.map((m) => ({ ...m, baseUrl: m.baseUrl === undefined ? undefined : publicBaseUrl(m.baseUrl) })) };
  return {
    design: d,
    specs: expandDesign(d),
    hash: designHash(located),
    json: canonicalJson(stored),
    prices: (s) => flagPrices ?? pricesFor(d, s.model.id),
    probes: d.probes === undefined ? [] : expandProbes(d, d.probes),
  };
}

/** The runs-table row of a session's run: its design, the tool version, the start time and the run kind (one-shot, repeated, enrichment). */
export function runRow(session: Session, started = new Date().toISOString()) {
  return { name: session.design.name, hash: session.hash, json: session.json, toolVersion: toolInfo().version, started, kind: designKind(session.design) };
}
