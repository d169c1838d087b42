/** The check `run` makes of a sealed store (preregister.ts): the design run is the design sealed. */
import { UserError } from '../core/errors.js';
import { canonicalJson } from '../live/design/design.js';
import type { Session } from '../live/runner/session.js';
import { readSeal } from '../live/store/seal.js';
import type { TrialStore } from '../live/store/store.js';
import { commandsMsg } from './messages.js';

/** What differs between the sealed design and this one: the first framing changed, added or removed, else the first other field. */
function designDifference(sealedJson: string, json: string): string {
  const a = JSON.parse(sealedJson) as Record<string, unknown>;
  const b = JSON.parse(json) as Record<string, unknown>;
  const byId = (d: Record<string, unknown>) => new Map(((d.framings ?? []) as { id: string }[]).map((f) => [f.id, canonicalJson(f)]));
  const fa = byId(a);
  const fb = byId(b);
  for (const [id, f] of fb) if (fa.get(id) !== f) return `framing "${id}"`;
  for (const id of fa.keys()) if (!fb.has(id)) return `framing "${id}"`;
  const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
  return `field ${keys.find((k) => canonicalJson(a[k]) !== canonicalJson(b[k])) ?? 'design'}`;
}

/** A sealed store runs only its sealed design: anything else is refused in one line naming what changed. */
export function checkSealedDesign(store: TrialStore, storePath: string, session: Session): void {
  const seal = readSeal(store.database);
  if (seal && seal.designHash !== session.hash) {
    throw new UserError(commandsMsg.sealedDesignDiffers(storePath, designDifference(seal.designJson, session.json), seal.sealed));
  }
}
