import { closeSync, mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readDigitized } from '../../../src/sources/digitized/index.js';
import { UserError } from '../../../src/core/errors.js';
import { runCli } from '../../helpers/cli.js';
import { projectTar, tarBytes } from '../../helpers/digitized-figure.js';

/**
 * The WebPlotDigitizer reader on hand-written projects: values recomputed from the calibration
 * (the stored `value` is wrong on purpose), labels in both metadata forms, positions, the layout's
 * rules, and hostile projects — each refused with one line naming the file, the CLI exiting 2
 * with nothing written, and no file created anywhere (the .tar is read in memory).
 */
const dir = mkdtempSync(join(tmpdir(), 'samegame-wpd-'));
const LAYOUT = ['dataset,point,model,game,framing,n', 'D,Bar0,A,G,business,100', 'D,Bar1,A,G,friend-sharing,100'];
// A 0–1 axis from y = 400 (0) to y = 100 (1): 3 px per count at n = 100.
const bar = (points: object[], axes: object = {}) => ({
  version: [4, 2],
  axesColl: [{ name: 'Bar', type: 'BarAxes', isLog: false, isRotated: false, calibrationPoints: [{ px: 50, py: 400, dx: '0', dy: '0', dz: null }, { px: 50, py: 100, dx: '0', dy: '1', dz: null }], ...axes }],
  datasetColl: [{ name: 'D', axesName: 'Bar', metadataKeys: ['label'], data: points }],
  measurementColl: [],
});
const OK = bar([{ x: 80, y: 325, value: [0.9], metadata: { label: 'Bar0' } }, { x: 120, y: 160, value: [0.1], metadata: { label: 'Bar1' } }]);

let seq = 0;
function files(project: object | string | Buffer, layout: string[] = LAYOUT, ext = 'json'): { p: string; l: string } {
  const p = join(dir, `p${++seq}.${ext}`), l = join(dir, `l${seq}.csv`);
  writeFileSync(p, typeof project === 'string' || Buffer.isBuffer(project) ? project : JSON.stringify(project));
  writeFileSync(l, layout.join('\n') + '\n');
  return { p, l };
}
const read = (project: object | string | Buffer, layout?: string[], ext?: string, K = 1) => {
  const { p, l } = files(project, layout, ext);
  return readDigitized(p, { layout: l, pixelError: K, base: 'business', alt: 'friend-sharing', displayPath: 'project', layoutDisplay: 'layout.csv' });
};
function refusal(project: object | string | Buffer, layout?: string[], ext?: string): string {
  try { read(project, layout, ext); } catch (e) {
    expect(e).toBeInstanceOf(UserError);
    const m = (e as Error).message;
    expect(m.split('\n')).toHaveLength(1);
    return m;
  }
  throw new Error('expected a UserError');
}

describe('readDigitized: values from the calibration', () => {
  it('recomputes each value (0.25 and 0.80 at 3 px per count), ignores the stored one, and reconstructs the counts', () => {
    const d = read(OK);
    expect(d.points.map((p) => [p.value, p.count])).toEqual([[0.25, 25], [0.8, 80]]);
    expect(d.rates.table.cells.map((c) => c.obs)).toEqual([{ kind: 'binary', n: 100, x: 25 }, { kind: 'binary', n: 100, x: 80 }]);
    expect(d.rates.rows.every((r) => r.reconstructed && r.rate === undefined)).toBe(true);
    // ±1 px on a 300 px axis is ±1/300: counts 24.67…25.33 → 25 both ways.
    expect(d.points[0]).toMatchObject({ valueLo: 0.25 - 1 / 300, valueHi: 0.25 + 1 / 300, countLo: 25, countHi: 25 });
    expect(d.sha256).toMatch(/^[0-9a-f]{64}$/);
    // A calibration click moved ±K/2 = 0.5 px on the 300 px axis (hand derivation): click 1 (0 at y = 400)
    // scales 1 − v by 300/(300 ∓ 0.5), at most 0.75 · 0.5/299.5; click 2 (1 at y = 100) scales v, at most 0.8 · 0.5/299.5.
    expect(d.calibration.map((c) => [c.axes, c.click, c.count])).toEqual([['Bar', 1, 0], ['Bar', 2, 0]]);
    expect(d.calibration[0].value).toBeCloseTo((0.75 * 0.5) / 299.5, 12);
    expect(d.calibration[1].value).toBeCloseTo((0.8 * 0.5) / 299.5, 12);
  });
  it('takes labels from array metadata (older files) and points by 1-based position', () => {
    const p = bar([{ x: 1, y: 325, metadata: ['Bar0'] }, { x: 2, y: 160, metadata: ['Bar1'] }]);
    expect(read(p).points.map((x) => x.count)).toEqual([25, 80]);
    const q = bar([{ x: 1, y: 325 }, { x: 2, y: 160 }]);
    expect(read(q, ['dataset,point,model,game,framing,n', 'D,2,A,G,friend-sharing,100', 'D,1,A,G,business,100']).points.map((x) => x.count)).toEqual([80, 25]);
  });
  it('reads XY axes (y is the value) and log axes', () => {
    const xy = {
      version: [4, 2],
      axesColl: [{ name: 'XY', type: 'XYAxes', isLogX: false, isLogY: false, noRotation: false, calibrationPoints: [
        { px: 50, py: 400, dx: '0', dy: '0' }, { px: 350, py: 400, dx: '10', dy: '0' }, { px: 50, py: 400, dx: '0', dy: '0' }, { px: 50, py: 100, dx: '0', dy: '1' }] }],
      datasetColl: [{ name: 'D', axesName: 'XY', data: [{ x: 80, y: 325, metadata: { label: 'Bar0' } }, { x: 120, y: 160, metadata: { label: 'Bar1' } }] }],
    };
    expect(read(xy).points.map((x) => x.count)).toEqual([25, 80]);
    // log10: 0.01 at y = 400, 1 at y = 100; y = 250 reads 0.1.
    const lg = bar([{ x: 1, y: 250, metadata: { label: 'Bar0' } }, { x: 2, y: 100, metadata: { label: 'Bar1' } }], { isLog: true, calibrationPoints: [{ px: 50, py: 400, dy: '0.01' }, { px: 50, py: 100, dy: '1' }] });
    expect(read(lg).points.map((x) => x.value)).toEqual([expect.closeTo(0.1, 12), 1]);
  });
  it('clamps a value just outside [0, 1] within ±K px, and refuses one further out naming dataset and point', () => {
    expect(read(bar([{ x: 1, y: 400.6, metadata: { label: 'Bar0' } }, { x: 2, y: 99.5, metadata: { label: 'Bar1' } }])).points.map((p) => p.count)).toEqual([0, 100]);
    expect(refusal(bar([{ x: 1, y: 420, metadata: { label: 'Bar0' } }, { x: 2, y: 160, metadata: { label: 'Bar1' } }]))).toMatch(/^project: dataset "D", point "Bar0" reads -0\.0666667, outside \[0, 1\]/);
  });
});

describe('readDigitized: the layout', () => {
  it('refuses a row naming no point or no dataset, an unmapped point, a point mapped twice and two points for one cell', () => {
    expect(refusal(OK, [...LAYOUT, 'D,Bar7,A,H,business,100'])).toBe('layout.csv:4: field "point": dataset "D" has no point "Bar7" (a label as WebPlotDigitizer stores it, or a position from 1 to 2)');
    expect(refusal(OK, [LAYOUT[0], 'E,Bar0,A,G,business,100'])).toMatch(/^layout\.csv:2: field "dataset": the project has no dataset "E"/);
    expect(refusal(OK, LAYOUT.slice(0, 2))).toBe('project: dataset "D", point "Bar1" has no row in layout.csv (map every digitized point to a cell, or delete it in WebPlotDigitizer)');
    expect(refusal(OK, [...LAYOUT, 'D,1,A,H,business,100'])).toBe('layout.csv:4: field "point": this point is mapped already on line 2');
    expect(refusal(OK, [LAYOUT[0], 'D,Bar0,A,G,business,100', 'D,Bar1,A,G,business,100'])).toBe('layout.csv:3: two points for the cell A / G / business (first on line 2)');
    expect(refusal(OK, [LAYOUT[0], 'D,Bar0,A,G,business,0', LAYOUT[2]])).toMatch(/^layout\.csv:2: field "n"/);
    expect(refusal(OK, ['dataset,point,model,game,n', 'D,Bar0,A,G,100'])).toMatch(/^layout\.csv:1: field "framing": required column/);
  });
});

const mutate = (f: (o: Record<string, any>) => void) => { const o = JSON.parse(JSON.stringify(OK)); f(o); return o; };

describe('readDigitized: hostile projects, one line each', () => {
  it('missing keys, strings for numbers, NaN, equal calibration points, unknown axes types, bad versions, not JSON', () => {
    expect(refusal(mutate((o) => { delete o.axesColl; }))).toBe('project: field "axesColl": missing');
    expect(refusal(mutate((o) => { delete o.datasetColl[0].data[1].y; }))).toBe('project: field "datasetColl[0].data[1].y": missing');
    expect(refusal(mutate((o) => { o.datasetColl[0].data[0].x = '80'; }))).toBe('project: field "datasetColl[0].data[0].x": "80" is not a finite number');
    expect(refusal(mutate((o) => { o.axesColl[0].calibrationPoints[1].dy = 'NaN'; }))).toBe('project: field "axesColl[0].calibrationPoints[1].dy": "NaN" is not a finite number');
    expect(refusal('{"version":[4,2],"axesColl":[],"datasetColl":[{"name":"D","axesName":"Bar","data":[{"x":NaN,"y":1}]}]}')).toMatch(/^project: not a WebPlotDigitizer project \(not JSON: /);
    expect(refusal(mutate((o) => { o.axesColl[0].calibrationPoints[1].py = 400; }))).toBe('project: field "axesColl[0].calibrationPoints": two calibration points are the same pixel: the axis has no direction');
    expect(refusal(mutate((o) => { o.axesColl[0].calibrationPoints[1].dy = '0'; }))).toBe('project: field "axesColl[0].calibrationPoints": the calibration values are equal: the axis has no scale');
    expect(refusal(mutate((o) => { o.axesColl[0].type = 'PolarAxes'; }))).toBe('project: field "axesColl[0].type": axes type "PolarAxes" is not supported (bar charts: BarAxes; XY plots: XYAxes)');
    expect(refusal(mutate((o) => { o.version = [3, 0]; }))).toBe('project: field "version": format [3,0] is not a WebPlotDigitizer 4 or 5 project');
    expect(refusal(mutate((o) => { o.axesColl[0].calibrationPoints.pop(); }))).toBe('project: field "axesColl[0].calibrationPoints": BarAxes needs 2 calibration points, the file has 1');
    expect(refusal(mutate((o) => { o.datasetColl[0].axesName = 'XY'; }))).toBe('project: field "datasetColl[0].axesName": names no axes of the project ("XY")');
    expect(refusal('[1,2]')).toBe('project: field "(top level)": not a JSON object');
    expect(refusal(readFileSync('data/examples/digitized/figure.png'), undefined, 'png')).toBe('project: not a WebPlotDigitizer project (a PNG image; give the project .tar or its wpd.json)');
    expect(refusal('\u0089PNX\r\n\u001a\n\u0000\u0000')).toMatch(/^project: not a WebPlotDigitizer project \(not JSON: [^\n\r]*\)$/);
  });

  it('fast-check: any value put at any field of a valid project is read or refused with one line — never another error', () => {
    const paths = [['version'], ['axesColl'], ['axesColl', 0], ['axesColl', 0, 'type'], ['axesColl', 0, 'isLog'], ['axesColl', 0, 'calibrationPoints'],
      ['axesColl', 0, 'calibrationPoints', 0, 'px'], ['axesColl', 0, 'calibrationPoints', 1, 'dy'], ['datasetColl', 0, 'name'], ['datasetColl', 0, 'data'],
      ['datasetColl', 0, 'data', 0], ['datasetColl', 0, 'data', 0, 'x'], ['datasetColl', 0, 'data', 1, 'y'], ['datasetColl', 0, 'data', 0, 'metadata'],
      ['datasetColl', 0, 'data', 0, 'metadata', 'label'], ['datasetColl', 0, 'metadataKeys']];
    const value = fc.oneof(fc.jsonValue(), fc.constantFrom('NaN', 'Infinity', '1e999', '', '0x10', ' 0.5 ', '-0'), fc.double());
    fc.assert(fc.property(fc.constantFrom(...paths), value, fc.boolean(), (path, v, drop) => {
      const o = JSON.parse(JSON.stringify(OK));
      let at = o;
      for (const k of path.slice(0, -1)) at = at[k];
      if (drop) delete at[path[path.length - 1]]; else at[path[path.length - 1]] = v;
      try {
        const d = read(JSON.stringify(o));
        return d.points.every((p) => Number.isFinite(p.value) && p.count >= 0 && p.count <= 100);
      } catch (e) {
        return e instanceof UserError && !e.message.includes('\n') && e.message.startsWith('project') || (e instanceof UserError && e.message.startsWith('layout.csv'));
      }
    }), { numRuns: 300 });
  });
});

describe('readDigitized: hostile .tar projects', () => {
  const png = readFileSync(join(import.meta.dirname, '../../../data/examples/digitized/figure.png'));
  const wpd = JSON.stringify(OK);
  const good = () => projectTar('proj', wpd, png);
  it('reads a project .tar (info.json, wpd.json, the image) like its wpd.json, and keeps the image', () => {
    const a = read(good(), LAYOUT, 'tar'), b = read(wpd);
    expect(a.points).toEqual(b.points);
    expect(a.images).toMatchObject([{ name: 'figure.png', info: { mime: 'image/png' } }]);
    expect(b.images).toEqual([]);
  });
  it('refuses ".." and absolute member names, links, special files, a damaged header, missing members and two projects', () => {
    const tar = (entries: Parameters<typeof tarBytes>[0]) => refusal(tarBytes(entries), LAYOUT, 'tar');
    expect(tar([{ name: 'proj/../../evil.json', data: wpd }])).toBe('project: member "proj/../../evil.json" is an absolute path or leaves the project folder ("..")');
    expect(tar([{ name: '/etc/wpd.json', data: wpd }])).toBe('project: member "/etc/wpd.json" is an absolute path or leaves the project folder ("..")');
    expect(tar([{ name: 'proj/wpd.json', type: '2', linkname: '/etc/passwd' }])).toBe('project: member "proj/wpd.json" is a link; a project .tar holds regular files only');
    expect(tar([{ name: 'proj/wpd.json', type: '1', linkname: 'x' }])).toBe('project: member "proj/wpd.json" is a link; a project .tar holds regular files only');
    expect(tar([{ name: 'proj/fifo', type: '6' }])).toBe('project: member "proj/fifo" is not a regular file (tar type "6")');
    // Cut inside the image's bytes, then inside a header.
    expect(refusal(good().subarray(0, good().length - 4000), LAYOUT, 'tar')).toMatch(/^project: not a project \.tar or damaged at byte \d+ \(a member runs past the end of the file\)$/);
    expect(refusal(good().subarray(0, 2000), LAYOUT, 'tar')).toBe('project: not a project .tar or damaged at byte 1536 (the file ends inside a header)');
    const bad = good(); bad[150] ^= 1;
    expect(refusal(bad, LAYOUT, 'tar')).toBe('project: not a project .tar or damaged at byte 0 (header checksum)');
    expect(tar([{ name: 'proj/info.json', data: '{"json":"wpd.json","images":["figure.png"]}' }, { name: 'proj/wpd.json', data: wpd }])).toBe('project: info.json names "figure.png", which the .tar does not hold');
    expect(tar([{ name: 'a/wpd.json', data: wpd }, { name: 'b/wpd.json', data: wpd }])).toBe('project: holds two projects ("a/wpd.json" and "b/wpd.json"); give one');
    expect(tar([{ name: 'proj/notes.txt', data: 'x' }])).toMatch(/^project: holds no wpd\.json/);
    expect(tar([{ name: 'proj/info.json', data: '{"json":"../wpd.json"}' }, { name: 'wpd.json', data: wpd }])).toBe('project: member "../wpd.json" is an absolute path or leaves the project folder ("..")');
  });
  it('refuses a 100 MB image from its header, before reading it (a sparse file: no 100 MB written)', () => {
    const head = tarBytes([{ name: 'proj/wpd.json', data: wpd }, { name: 'proj/figure.png', size: 100 * 2 ** 20 }]).subarray(0, -1024);
    const p = join(dir, 'big.tar');
    writeFileSync(p, head);
    const fd = openSync(p, 'r+');
    writeSync(fd, Buffer.alloc(1024), 0, 1024, head.length + 100 * 2 ** 20);
    closeSync(fd);
    const l = join(dir, 'big.csv');
    writeFileSync(l, LAYOUT.join('\n'));
    expect(() => readDigitized(p, { layout: l, pixelError: 1, base: 'business', alt: 'friend-sharing', displayPath: 'project' }))
      .toThrow('project: member "proj/figure.png" is 100 MiB, above the limit of 32 MiB');
    // A wpd.json over the limit is refused from its size.
    const { p: big } = files(Buffer.alloc(17 * 2 ** 20, 32), LAYOUT, 'json');
    expect(() => readDigitized(big, { layout: l, pixelError: 1, base: 'business', alt: 'friend-sharing', displayPath: 'project' }))
      .toThrow('project: the project is 17 MiB, above the limit of 16 MiB');
  });
  it('fast-check: any member name and tar type is read or refused with one line; nothing is ever extracted', () => {
    // The .tar sits two folders down: a member extracted through "../" would land in `dir` or `nest`.
    const nest = join(dir, 'nest'), deeper = join(nest, 'deeper');
    mkdirSync(deeper, { recursive: true });
    const before = readdirSync(dir).sort();
    const name = fc.oneof(fc.string({ maxLength: 60 }), fc.constantFrom('../x', '../../x', 'proj/../../x', '/abs', 'C:/x', 'a\\b', './proj/wpd.json', 'proj//wpd.json'));
    fc.assert(fc.property(fc.array(fc.record({ name, type: fc.constantFrom('0', '1', '2', '3', '5', '6', '7', 'L', 'x', 'g'), body: fc.boolean() }), { maxLength: 4 }), (entries) => {
      const bytes = tarBytes(entries.map((e) => ({ name: e.name || 'x', type: e.type, data: e.body ? wpd : '' })));
      const p = join(deeper, 'fc.tar');
      writeFileSync(p, bytes);
      try { readDigitized(p, { layout: join(dir, 'l1.csv'), pixelError: 1, base: 'business', alt: 'friend-sharing', displayPath: 'project' }); return true; } catch (e) {
        return e instanceof UserError && !e.message.includes('\n');
      }
    }), { numRuns: 200 });
    expect(readdirSync(dir).sort()).toEqual(before);
    expect(readdirSync(nest)).toEqual(['deeper']);
    expect(readdirSync(deeper)).toEqual(['fc.tar']);
  });
});

describe('the CLI on a hostile project: exit 2, one line, nothing written', () => {
  it.each([
    ['a ".." member', () => tarBytes([{ name: '../wpd.json', data: JSON.stringify(OK) }]), 'tar'],
    ['a symbolic link', () => tarBytes([{ name: 'p/wpd.json', type: '2', linkname: '/etc/passwd' }]), 'tar'],
    ['NaN as text', () => JSON.stringify(mutate((o) => { o.axesColl[0].calibrationPoints[0].dy = 'NaN'; })), 'json'],
    ['an unknown axes type', () => JSON.stringify(mutate((o) => { o.axesColl[0].type = 'TernaryAxes'; })), 'json'],
  ])('%s', async (_what, make, ext) => {
    const { p, l } = files(make() as string | Buffer, LAYOUT, ext);
    const out = mkdtempSync(join(tmpdir(), 'samegame-wpd-out-'));
    for (const cmd of ['reproduce', 'audit']) {
      const r = await runCli([cmd, '--digitized', p, '--layout', l, '--out', out, '--reps', '100']);
      expect(r.code).toBe(2);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).toContain(p);
    }
    expect(readdirSync(out)).toEqual([]);
  });
  it('--digitized needs --layout; --layout needs --digitized; --reading-error is refused with it', async () => {
    const { p, l } = files(OK);
    expect((await runCli(['reproduce', '--digitized', p])).stderr).toContain('--digitized needs --layout LAYOUT.csv');
    expect((await runCli(['reproduce', '--layout', l])).stderr).toContain('--layout and --pixel-error apply to a digitized figure');
    for (const bad of ['-1', 'abc', '101', '']) {
      const e = await runCli(['reproduce', '--digitized', p, '--layout', l, '--pixel-error', bad]);
      expect([e.code, e.stderr]).toEqual([2, expect.stringContaining(`--pixel-error: ${JSON.stringify(bad)} is not a number of pixels from 0 to 100`)]);
    }
    const r = await runCli(['audit', '--digitized', p, '--layout', l, '--reading-error', '2']);
    expect([r.code, r.stderr.trim()]).toEqual([2, expect.stringContaining('--reading-error (counts) applies to rates files')]);
  });
});

describe('a name used twice in a project', () => {
  it('a second BarAxes also named "Bar" (listed first, calibrated 0 → 0.5) is refused naming both, not read through the wrong calibration', () => {
    const half = { ...OK.axesColl[0], calibrationPoints: [{ px: 50, py: 400, dx: '0', dy: '0', dz: null }, { px: 50, py: 100, dx: '0', dy: '0.5', dz: null }] };
    expect(refusal({ ...OK, axesColl: [half, OK.axesColl[0]] }))
      .toBe('project: field "axesColl[1].name": axes name "Bar" is used twice (also axesColl[0].name): rename one in WebPlotDigitizer');
  });
  it('a second dataset with a name already used is refused naming both, not ignored', () => {
    const again = { ...OK.datasetColl[0], data: [{ x: 80, y: 100, value: [1], metadata: { label: 'Bar0' } }] };
    expect(refusal({ ...OK, datasetColl: [OK.datasetColl[0], again] }))
      .toBe('project: field "datasetColl[1].name": dataset name "D" is used twice (also datasetColl[0].name): rename one in WebPlotDigitizer');
  });
});
