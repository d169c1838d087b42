/**
 * The report sections of an input's provenance (core/provenance.ts): whether the data are
 * synthetic and why, the run and its design hash, and each framing compared — its template and
 * one prompt the run rendered from it — whichever route the trials took (a store, an export).
 */
import type { Origin } from '../core/provenance.js';
import type { Block, Section } from '../render/html.js';

function framingBlocks(o: Origin): Block[] {
  return (o.framings ?? []).flatMap((f): Block[] => [
    { kind: 'text', text: `Framing ${f.id}${f.template === undefined ? ': no template stored (a built-in framing)' : ': template'}` },
    ...(f.template !== undefined ? [{ kind: 'code', text: f.template } as const] : []),
    ...(f.prompt !== undefined ? [{ kind: 'text', text: `One prompt of ${f.id} as the run sent it:` } as const, { kind: 'code',
      text: f.prompt } as const] : []),
  ]);
}

/** The origin's facts and the framing texts, as report sections (none for a file that says nothing more than its path). */
export function originSections(o: Origin): Section[] {
  const facts: [string, string][] = [
    ['Synthetic', o.synthetic ? `yes: ${(o.syntheticWhy ?? []).join('; ')}` : 'no'],
    ...(o.run ? [['Run', `${o.run.id} of design "${o.run.design}"`], ['Design hash', o.run.designHash]] as [string, string][] : []),
    ...(o.exploratory?.length ? [['Exploratory', `${o.exploratory.join(', ')} differ from the sealed plan`]] as [string, string][] : []),
  ];
  if (!o.synthetic && !o.run && !o.framings?.length) return [];
  const framings = framingBlocks(o);
  return [
    { id: 'origin', heading: 'Where the data come from', blocks: [{ kind: 'facts', items: facts }] },
    ...(framings.length ? [{ id: 'framings', heading: 'The framings compared', blocks: framings }] : []),
  ];
}
