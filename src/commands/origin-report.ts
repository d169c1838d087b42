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

/**
 * The input's provenance section (its path, hash, kind) with the origin's facts added to it, then the framing texts: one
 * section on where the data come from, however the input came (the origin adds nothing for a file that says no more than its path).
 */
export function provenanceSections(provenance: Section, o: Origin): Section[] {
  const facts: [string, string][] = [
    ['Synthetic', o.synthetic ? `yes: ${(o.syntheticWhy ?? []).join('; ')}` : 'no'],
    ...(o.run ? [['Run', `${o.run.id} of design "${o.run.design}"`], ['Design hash', o.run.designHash]] as [string, string][] : []),
    ...(o.exploratory?.length ? [['Exploratory', `${o.exploratory.join(', ')} differ from the sealed plan`]] as [string, string][] : []),
  ];
  const framings = framingBlocks(o);
  const says = o.synthetic || o.run !== undefined || (o.framings?.length ?? 0) > 0;
  const first = provenance.blocks.findIndex((b) => b.kind === 'facts');
  const blocks = !says ? provenance.blocks : first < 0 ? [{ kind: 'facts' as const, items: facts }, ...provenance.blocks]
    : provenance.blocks.map((b, i) => (i === first && b.kind === 'facts' ? { ...b, items: [...b.items, ...facts] } : b));
  return [
    { ...provenance, blocks },
    ...(framings.length ? [{ id: 'framings', heading: 'The framings compared', blocks: framings }] : []),
  ];
}
