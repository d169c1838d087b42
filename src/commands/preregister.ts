/**
 * `samegame preregister PLAN --store S`: the plan checked against its design, then its canonical
 * JSON, SHA-256 and the time written into the store before the first trial (live/store/seal.ts).
 * `run` refuses a sealed store whose design differs (seal-check.ts), and a seal is never
 * replaced. docs/methods.md §25 says what the seal proves.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { UserError } from '../core/errors.js';
import { silentLogger, type Logger } from '../core/logger.js';
import { canonicalJson, loadDesign } from '../live/design/design.js';
import { prepareSession, type Session } from '../live/runner/session.js';
import { TrialStore } from '../live/store/store.js';
import { readSeal, trialCount, writeSeal, type StoreSeal } from '../live/store/seal.js';
import { preregistration, type Plan } from '../analyses/preregistration/index.js';
import { defaultStore } from './command-options.js';
import { commandsMsg } from './messages.js';

export interface PreregisterOptions {
  /** The plan (YAML) file. */
  readonly plan: string;
  /** The trial store (default: the design's, runs/NAME.sqlite). */
  readonly store?: string;
  readonly logger?: Logger;
  /** The seal's time (default: now). */
  readonly now?: () => Date;
}

/** The plan's design, read as `run` reads it without flags: its session (hash, canonical JSON). */
function planSession(plan: Plan, planFile: string): { session: Session; designFile: string } {
  const designFile = resolve(dirname(planFile), plan.design);
  return { session: prepareSession(loadDesign(designFile), {}, undefined, designFile), designFile };
}

/** Every model, game and framing a plan names is the design's. */
function checkNames(plan: Plan, session: Session, file: string): void {
  const d = session.design;
  const has = (what: string, name: string, known: readonly string[]) => {
    if (!known.includes(name)) throw new UserError(commandsMsg.planNames(file, what, name, known));
  };
  for (const f of [plan.analysis.base, plan.analysis.alt]) has('framing', f, d.framings.map((x) => x.id));
  for (const h of plan.hypotheses) {
    has('model', h.model, [...d.models.map((m) => m.id), 'pooled', ...(h.estimand === 'framing-test' ? ['every'] : [])]);
    if (h.game !== undefined) has('game', h.game, d.games.map((g) => g.id));
  }
}

/** The plan's canonical JSON: the plan with every default applied and the SHA-256 of the design it seals. */
export function planCanonicalJson(plan: Plan, designHash: string): string {
  return canonicalJson({ ...plan, design_sha256: designHash });
}

/** Seal the plan into the store; returns the seal. */
export function preregister(o: PreregisterOptions): StoreSeal {
  const plan = preregistration.parsePlan(readFileSync(o.plan, 'utf8'), o.plan);
  const { session } = planSession(plan, o.plan);
  checkNames(plan, session, o.plan);
  const storePath = o.store ?? defaultStore(session.design.name);
  const store = TrialStore.open(storePath);
  try {
    const old = readSeal(store.database);
    if (old) throw new UserError(commandsMsg.alreadySealed(storePath, old.planSha256, old.sealed));
    const n = trialCount(store.database);
    if (n > 0) throw new UserError(commandsMsg.sealAfterTrials(storePath, n));
    store.preparePlay(); // the current version: trials carry the time they were stored
    const planJson = planCanonicalJson(plan, session.hash);
    const seal: StoreSeal = {
      planSha256: createHash('sha256').update(planJson).digest('hex'), planJson, designHash: session.hash, designJson: session.json,
      sealed: (o.now ?? (() => new Date()))().toISOString(),
    };
    writeSeal(store.database, seal);
    (o.logger ?? silentLogger).info(commandsMsg.sealed(storePath, seal.planSha256, session.design.name, seal.designHash, seal.sealed));
    return seal;
  } finally {
    store.close();
  }
}
