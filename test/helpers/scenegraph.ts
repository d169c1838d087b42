/**
 * A figure's flaws read off the Vega scenegraph (the headless View the renderer draws from, with
 * the figures' own text metrics): a data mark whose drawn bounds leave the plot area of its
 * group, and axis labels that overlap another label of the same axis (a label Vega hides for
 * overlap, opacity 0, is not drawn and not counted); and every text a figure draws, to look for raw ids where display names are given.
 */
import type { TopLevelSpec } from 'vega-lite';
import { prepareRenderer } from '../../src/render/render.js';
import { loadVega } from '../../src/render/vega-runtime.js';

interface Bounds { x1: number; y1: number; x2: number; y2: number }
interface Item { x?: number; y?: number; width?: number; height?: number; opacity?: number; text?: unknown; bounds: Bounds; items?: Scene[];
  datum?: Record<string, unknown> }
interface Scene { marktype: string; role: string; name?: string; items: Item[]; clip?: boolean }

export interface Flaw { readonly figure: string; readonly what: string }

/** Tolerance, px: an anti-aliasing edge, not a mark cut off. */
const EPS = 0.75;

const overlaps = (a: Bounds, b: Bounds) => a.x1 < b.x2 - EPS && b.x1 < a.x2 - EPS && a.y1 < b.y2 - EPS && b.y1 < a.y2 - EPS;
const text = (i: Item) => (Array.isArray(i.text) ? i.text.join(' ') : String(i.text));

function axisLabelFlaws(figure: string, axis: Scene, out: Flaw[]): void {
  const labels: Item[] = [];
  const collect = (s: Scene) => {
    if (s.role === 'axis-label') labels.push(...s.items.filter((i) => i.opacity !== 0 && text(i).trim() !== ''));
    for (const i of s.items) for (const c of i.items ?? []) collect(c);
  };
  collect(axis);
  for (let a = 0; a < labels.length; a++) {
    for (let b = a + 1; b < labels.length; b++) {
      if (overlaps(labels[a].bounds, labels[b].bounds)) out.push({ figure, what: `tick labels "${text(labels[a])}" and "${text(labels[b])}" overlap` });
    }
  }
}

type Drawable = Item & { x2?: number; y2?: number; strokeWidth?: number; strokeCap?: string; defined?: boolean };

/**
 * What a mark item covers when drawn: a rule its stroke's half width across its direction and, with butt caps (the default), nothing
 * along it; a point of a line the half width across the segments it ends (a vertical line's end at the plot's top edge is inside);
 * Vega's own bounds add the half width all round. Any other mark its bounds.
 */
function drawn(marktype: string, items: readonly Drawable[], k: number): Bounds {
  const i = items[k];
  const hw = (i.strokeWidth ?? 1) / 2;
  const cap = i.strokeCap === 'round' || i.strokeCap === 'square' ? hw : 0;
  const x = i.x ?? 0, y = i.y ?? 0;
  if (marktype === 'rule') {
    const x2 = i.x2 ?? x, y2 = i.y2 ?? y;
    const across = x === x2 ? { x: hw, y: cap } : y === y2 ? { x: cap, y: hw } : { x: hw, y: hw };
    return { x1: Math.min(x, x2) - across.x, x2: Math.max(x, x2) + across.x, y1: Math.min(y, y2) - across.y, y2: Math.max(y, y2) + across.y };
  }
  if (marktype === 'line') {
    // The segments this point ends (to the previous and the next defined point); a point alone draws nothing beyond its caps.
    const ends = [items[k - 1], items[k + 1]].filter((n): n is Drawable => n !== undefined && n.defined !== false && i.defined !== false);
    let ax = cap, ay = cap;
    for (const n of ends) {
      const dx = (n.x ?? 0) - x, dy = (n.y ?? 0) - y, len = Math.hypot(dx, dy);
      if (len > 0) { ax = Math.max(ax, (hw * Math.abs(dy)) / len); ay = Math.max(ay, (hw * Math.abs(dx)) / len); }
    }
    return { x1: x - ax, x2: x + ax, y1: y - ay, y2: y + ay };
  }
  return i.bounds;
}

/** The flaws of one scene node, in a group of the given plot size. */
function walk(figure: string, s: Scene, area: { width: number; height: number } | undefined, out: Flaw[]): void {
  if (s.role === 'axis') { for (const i of s.items) for (const c of i.items ?? []) axisLabelFlaws(figure, c, out); return; }
  if (s.role === 'legend' || s.role === 'title' || s.role?.startsWith('axis') || s.role === 'legend-entry') return;
  if (s.marktype === 'group') {
    for (const g of s.items) {
      const own = g.width !== undefined && g.height !== undefined && (g.width > 0 || g.height > 0) ? { width: g.width, height: g.height } : area;
      for (const c of g.items ?? []) walk(figure, c, own, out);
    }
    return;
  }
  if (s.role !== 'mark' || !area) return;
  s.items.forEach((i, k) => {
    if (i.opacity === 0 || !Number.isFinite(i.bounds.x1)) return;
    const b = drawn(s.marktype, s.items, k);
    if (b.x1 < -EPS || b.y1 < -EPS || b.x2 > area.width + EPS || b.y2 > area.height + EPS) {
      out.push({ figure, what: `a ${s.marktype} mark (${s.name ?? 'unnamed'}) at [${b.x1.toFixed(1)}, ${b.x2.toFixed(1)}] × [${b.y1.toFixed(1)}, ` +
        `${b.y2.toFixed(1)}] leaves the ${area.width} × ${area.height} plot area` });
    }
  });
}

/** The scenegraph of a Vega-Lite spec as the renderer draws it, handed to `read` before the view is let go. */
async function drawnScene<T>(spec: TopLevelSpec, read: (root: Scene) => T): Promise<T> {
  prepareRenderer();
  const { vega, vegaLite } = loadVega();
  const view = new vega.View(vega.parse(vegaLite.compile(spec).spec), { renderer: 'none' });
  try {
    await view.runAsync();
    return read((view.scenegraph() as unknown as { root: Scene }).root);
  } finally {
    view.finalize();
  }
}

/** The flaws of a Vega-Lite spec as drawn: marks outside their plot area, overlapping tick labels. */
export async function figureFlaws(figure: string, spec: TopLevelSpec): Promise<Flaw[]> {
  return drawnScene(spec, (root) => {
    const out: Flaw[] = [];
    walk(figure, root, undefined, out);
    return out;
  });
}

/** Every text the figure draws (titles, subtitles, axis and legend labels and titles, facet headers, text marks), as shown (opacity 0 left out). */
export async function figureTexts(spec: TopLevelSpec): Promise<string[]> {
  return drawnScene(spec, (root) => {
    const out: string[] = [];
    const visit = (s: Scene) => {
      for (const i of s.items) {
        if (s.marktype === 'text' && i.opacity !== 0 && i.text !== undefined && text(i).trim() !== '') out.push(text(i));
        for (const c of i.items ?? []) visit(c);
      }
    };
    visit(root);
    return out;
  });
}
