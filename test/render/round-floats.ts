/**
 * Snapshot normalisation (the Observable Plot convention): every decimal number in a text is
 * rounded to `digits` places, so a snapshot compares the drawing, not the last bits of a float.
 */
export function roundFloats(text: string, digits = 3): string {
  return text.replace(/-?\d*\.\d+(?:e-?\d+)?/g, (m) => {
    const r = Number(Number(m).toFixed(digits));
    return String(Object.is(r, -0) ? 0 : r);
  });
}
