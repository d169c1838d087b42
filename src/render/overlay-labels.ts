/**
 * Where an overlay's short labels go: beside each point, inside the image, clear of the other
 * labels and points where a free place exists. Each label tries four places (right above, right
 * below, left above, left below) and takes the first that stays inside the image and touches no
 * label placed before it and no point; if none is free, the first that stays inside.
 */

export interface LabelPlace { readonly x: number; readonly y: number; readonly anchor: 'start' | 'end' }
interface Box { x0: number; y0: number; x1: number; y1: number }

const overlaps = (a: Box, b: Box) => a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1;

/** Text width estimate: 0.62 em a character (digits and short labels in a sans-serif font). */
export function placeLabels(points: readonly { x: number; y: number; text: string }[], width: number, height: number, fontSize: number): LabelPlace[] {
  const gap = fontSize / 2, r = 3;
  const placed: Box[] = [];
  const dots: Box[] = points.map((p) => ({ x0: p.x - r, y0: p.y - r, x1: p.x + r, y1: p.y + r }));
  return points.map((p) => {
    const w = 0.62 * fontSize * p.text.length;
    const boxes = [[1, -1], [1, 1], [-1, -1], [-1, 1]].map(([sx, sy]) => {
      const x0 = sx > 0 ? p.x + gap : p.x - gap - w;
      const y1 = sy < 0 ? p.y - gap : p.y + gap + fontSize;
      return { x0, y0: y1 - fontSize, x1: x0 + w, y1, sx };
    });
    const inside = boxes.filter((b) => b.x0 >= 0 && b.x1 <= width && b.y0 >= 0 && b.y1 <= height);
    const free = inside.find((b) => !placed.some((o) => overlaps(b, o)) && !dots.some((o) => overlaps(b, o)));
    const clamp = (b: Box & { sx: number }) => {
      const x0 = Math.min(Math.max(b.x0, 0), Math.max(0, width - w)), y1 = Math.min(Math.max(b.y1, fontSize), height);
      return { x0, y0: y1 - fontSize, x1: x0 + w, y1, sx: b.sx };
    };
    const b = free ?? inside[0] ?? clamp(boxes[0]);
    placed.push(b);
    // The text's baseline sits a fifth of an em above the box's bottom (descenders of digits: none).
    return b.sx > 0 || !free && !inside[0] ? { x: b.x0, y: b.y1 - fontSize / 5, anchor: 'start' as const } : { x: b.x1, y: b.y1 - fontSize / 5,
      anchor: 'end' as const };
  });
}
