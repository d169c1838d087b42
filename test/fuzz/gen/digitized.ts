/**
 * WebPlotDigitizer projects (`--digitized PROJECT --layout LAYOUT.csv`) from a seeded generator:
 * a bar chart's project (a 0–1 axis from y = 400 to y = 100) as wpd.json or as a project .tar,
 * with benign variations (points in another order, extra fields, numbers typed as text, older
 * array metadata) whose counts must equal the generator's own — round(n · (400 − y)/300) — and
 * hostile variations that must be refused: an axes or dataset name used twice, a calibration
 * value that is not a number, equal calibration clicks, a missing field, another version, a tar
 * member that leaves the folder or is a link, a tar cut short, bytes that are no project.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readDigitized } from '../../../src/sources/digitized/index.js';
import { projectTar, tarBytes } from '../../helpers/digitized-figure.js';
import { mustRefuse, stream, type FuzzCase } from './common.js';

type Json = Record<string, unknown>;
const AXES = (name = 'Bar', dy1: unknown = '1', py1 = 100): Json => ({
  name, type: 'BarAxes', isLog: false, isRotated: false,
  calibrationPoints: [{ px: 50, py: 400, dx: '0', dy: '0', dz: null }, { px: 50, py: py1, dx: '0', dy: dy1, dz: null }],
});

interface Bar { label: string; y: number; framing: string; model: string }

function project(bars: readonly Bar[], r: ReturnType<typeof stream>): Json {
  const order = [...bars];
  if (r.next() < 0.5) order.reverse();
  const arrayMeta = r.next() < 0.3;
  return {
    version: [4, 2], ...(r.next() < 0.3 ? { extra: { anything: [1, 2] } } : {}),
    axesColl: [AXES()],
    datasetColl: [{ name: 'D', axesName: 'Bar', metadataKeys: ['label'], data: order.map((b) => ({ x: 80, y: b.y, value: [-1], metadata: arrayMeta ? [b.label] : { label: b.label } })) }],
    measurementColl: [],
  };
}

const HOSTILE: readonly [string, (p: Json) => Json | string | Buffer][] = [
  ['a second axes named Bar', (p) => ({ ...p, axesColl: [AXES('Bar', '0.5'), ...(p.axesColl as Json[])] })],
  ['a second dataset named D', (p) => ({ ...p, datasetColl: [...(p.datasetColl as Json[]), { ...(p.datasetColl as Json[])[0] }] })],
  ['a calibration value NaN', (p) => ({ ...p, axesColl: [AXES('Bar', 'NaN')] })],
  ['a calibration value 1e999', (p) => ({ ...p, axesColl: [AXES('Bar', '1e999')] })],
  ['equal calibration clicks', (p) => ({ ...p, axesColl: [AXES('Bar', '1', 400)] })],
  ['a pixel as text', (p) => ({ ...p, datasetColl: [{ ...(p.datasetColl as Json[])[0], data: [{ x: '80', y: 200, metadata: { label: 'Bar0' } }] }] })],
  ['no axesColl', (p) => ({ ...p, axesColl: undefined })],
  ['version 3', (p) => ({ ...p, version: [3, 0] })],
  ['JSON cut short', (p) => JSON.stringify(p).slice(0, 120)],
  ['a tar member leaving the folder', (p) => tarBytes([{ name: 'proj/../../evil.json', data: JSON.stringify(p) }])],
  ['a tar member that is a link', (p) => tarBytes([{ name: 'proj/wpd.json', type: '2', linkname: '/etc/passwd' }])],
  ['a tar cut short', (p) => projectTar('proj', p, Buffer.alloc(2000, 7)).subarray(0, 1300)],
  ['bytes that are no project', () => Buffer.from(Array.from({ length: 900 }, (_, i) => (i * 131) % 256))],
];

export function digitizedCases(dir: string, seed: number, count: number): FuzzCase[] {
  const r = stream(seed);
  const cases: FuzzCase[] = [];
  for (let i = 0; i < count; i++) {
    const d = join(dir, `wpd-${i}`);
    mkdirSync(d);
    const n = 50 + r.int(250);
    const models = ['A', 'B', 'C'].slice(0, 1 + r.int(3));
    const bars: Bar[] = models.flatMap((model, m) => ['business', 'friend-sharing'].map((framing, f) => ({ label: `Bar${2 * m + f}`, y: 100 + r.int(301), framing, model })));
    const p = project(bars, r);
    const hostile = r.next() < 0.5 ? r.pick(HOSTILE) : undefined;
    const body = hostile ? hostile[1](p) : p;
    const asTar = Buffer.isBuffer(body) || (!hostile && r.next() < 0.5);
    const file = join(d, asTar ? 'p.tar' : 'wpd.json');
    writeFileSync(file, Buffer.isBuffer(body) ? body : asTar ? projectTar('proj', body, Buffer.alloc(64, 1)) : typeof body === 'string' ? body : JSON.stringify(body));
    const layout = join(d, 'layout.csv');
    writeFileSync(layout, `dataset,point,model,game,framing,n\n${bars.map((b) => `D,${b.label},${b.model},G,${b.framing},${n}`).join('\n')}\n`);
    const out = join(d, 'out');
    cases.push({
      name: `report a fuzzed WebPlotDigitizer project #${i} (${hostile ? hostile[0] : `benign, ${asTar ? '.tar' : 'wpd.json'}`})`,
      argv: ['report', '--digitized', file, '--layout', layout, '--reps', '20', '-q', '--out', out],
      outputs: [out],
      after: hostile ? mustRefuse(hostile[0]) : undefined,
      accepted: hostile ? undefined : () => {
        const got = readDigitized(file, { layout, pixelError: 1, base: 'business', alt: 'friend-sharing' }).rates.table.cells
          .map((c) => `${c.key.model}|${c.key.framing}=${(c.obs as { x: number }).x}`).sort();
        // Hand derivation: value = (400 − y)/300 on the 0–1 axis, count = round(n · value) (halves up).
        const want = bars.map((b) => `${b.model}|${b.framing}=${Math.floor((n * (400 - b.y)) / 300 + 0.5)}`).sort();
        return JSON.stringify(got) === JSON.stringify(want) ? [] : [`counts ${got.join(' ')} but the chart says ${want.join(' ')}`];
      },
    });
  }
  return cases;
}
