import { join } from 'node:path';
import type { OutputFile } from '../../core/atomic.js';
import type { DigitizedInput } from '../../sources/digitized/index.js';
import { toCsv } from '../../render/csv.js';
import { num, type Block, type Section } from '../../render/html.js';

/**
 * The provenance of a digitized figure's numbers: reports/digitization.csv (every point's click,
 * value, count and their ranges at ±K px), the project's fields of metrics.json (its SHA-256,
 * images, calibration sensitivity), and the report section that draws every point and its
 * whisker over the image (a .tar project only: a wpd.json alone has no image).
 */
export const DIGITIZATION_COLUMNS = ['model', 'game', 'framing', 'dataset', 'point', 'px', 'py', 'value', 'value_lo', 'value_hi', 'count', 'count_lo',
  'count_hi'] as const;

const f6 = (v: number) => ({ numberText: v.toFixed(6) });

export function digitizationCsv(d: DigitizedInput): string {
  return toCsv(DIGITIZATION_COLUMNS, d.points.map((p) => [p.model, p.game, p.framing, p.dataset, p.point, p.px, p.py,
    f6(p.value), f6(p.valueLo), f6(p.valueHi), p.count, p.countLo, p.countHi]));
}

export const digitizationFiles = (reportsDir: string, d: DigitizedInput): OutputFile[] =>
  [{ path: join(reportsDir, 'digitization.csv'), content: digitizationCsv(d) }];

/** The "±K px of the digitized figure" the reading error is stated in. */
export const pixelLabel = (K: number): string => `±${K} px of the digitized figure`;

/** metrics.json's `digitization` field. */
export function digitizationMetrics(d: DigitizedInput) {
  return {
    project: { path: d.path, sha256: d.sha256, container: d.container, format: d.version },
    images: d.images.map((i) => ({ name: i.name, sha256: i.sha256, bytes: i.bytes, ...(i.info ? { type: i.info.mime, width: i.info.width,
      height: i.info.height } : {}) })),
    layout: d.layout,
    pixel_error: { px: d.pixelError, stated: pixelLabel(d.pixelError) },
    values: 'recomputed from each axes\' calibration clicks (the project\'s stored values are not used); count = round(value · n)',
    calibration_sensitivity: d.calibration.map((c) => ({ axes: c.axes, click: c.click, moved_px: d.pixelError / 2, max_value_change: c.value,
      max_count_change: c.count })),
  };
}

const cellOf = (p: DigitizedInput['points'][number]) => `${p.model} / ${p.game} / ${p.framing}`;

/** The report section: the image with its points, or (a wpd.json alone) the table of points. */
export function digitizationSection(d: DigitizedInput): Section {
  const img = d.images.find((i) => i.info && i.data);
  const K = d.pixelError;
  const blocks: Block[] = [{
    kind: 'text',
    text: (`Every count below was read from ${d.path} (SHA-256 ${d.sha256.slice(0, 12)}…): a click in image pixels, turned into a value by the axes' ` +
      `calibration and into a count as round(value · n). Whiskers: ±${K} px along the value axis, the reading error the audit uses.`),
  }];
  if (img) {
    blocks.push({
      kind: 'overlay', id: 'digitized-figure',
        caption: (`${img.name}: the ${d.points.length} digitized points, each numbered as in the table below (hover a point for its cell), with ±${K} px ` +
          `whiskers.`),
      image: { mime: img.info!.mime, base64: img.data!.toString('base64'), width: img.info!.width, height: img.info!.height },
      marks: d.points.map((p, i) => ({ x: p.px, y: p.py, lo: p.whisker[0], hi: p.whisker[1], label: cellOf(p), key: String(i + 1) })),
    });
  } else {
    blocks.push({ kind: 'text',
      text: d.container === 'tar' ? ('The project holds no PNG, JPEG or GIF image to draw the points ' +
        'on.') : 'A wpd.json alone holds no image: give the project .tar to see the points drawn on the figure.' });
  }
  blocks.push({
    kind: 'table', id: 'digitization-points', caption: `Each point's click, value and count, and their ranges at ±${K} px`,
    columns: ['#', 'cell', 'dataset', 'point', 'px', 'py', 'value', `count (range at ±${K} px)`],
    rows: d.points.map((p, i) => [num(String(i + 1)), cellOf(p), p.dataset, p.point, num(p.px.toFixed(2)), num(p.py.toFixed(2)),
      num(p.value.toFixed(4)), num(`${p.count} (${p.countLo}–${p.countHi})`)]),
  });
  return { id: 'digitized', heading: 'From the figure', blocks };
}
