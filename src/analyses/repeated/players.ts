/**
 * Which players are analysed as models: by default those the source does not mark as scripted (a
 * log format's `scripted:` list — fixed strategies such as Akata et al.'s act_j); scripted players
 * stay in the decisions of the models that met them, as opponents. `--players all` analyses every
 * player as a model.
 */
import type { RepeatedDecisions } from '../../core/decisions.js';
import { shown, type DisplayNames } from '../../core/display-names.js';

export const PLAYER_CHOICES = ['models', 'all'] as const;
export type PlayerChoice = typeof PLAYER_CHOICES[number];

/** The decisions of the chosen players, with a note naming the scripted players left as opponents only. */
export function choosePlayers(input: RepeatedDecisions, players: PlayerChoice = 'models', names?: DisplayNames): RepeatedDecisions {
  const scripted = new Set(input.scripted ?? []);
  if (players === 'all' || scripted.size === 0) return input;
  const present = [...new Set(input.decisions.map((d) => d.model))].filter((m) => scripted.has(m));
  const kept = input.decisions.filter((d) => !scripted.has(d.model));
  if (present.length === 0 || kept.length === 0) return input; // nothing scripted here, or nothing but scripts: every player is analysed
  return { ...input, decisions: kept, notes: [...(input.notes ?? []), scriptedNote(present, names)] };
}

/** The note naming the scripted players left as opponents only (whichever form the decisions take). */
export const scriptedNote = (present: readonly string[], names?: DisplayNames): string =>
  `scripted players (${present.map((m) => shown(names, m)).join(', ')}) are analysed as opponents only; --players all analyses them as players too.`;
