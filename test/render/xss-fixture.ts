import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const XSS_MODEL = '<img src=x onerror="window.__pwned=1">';
export const XSS_NOTE = '</script><script>window.__pwned=2</script>';
/** A rates file whose model name and note are HTML that would run if written unescaped. */
export function xssRates(dir: string): string {
  const q = (s: string) => `"${s.replace(/"/g, '""')}"`;
  const rows = ['model,game,framing,n,rate,note'];
  for (const [m, g, f, r] of [[XSS_MODEL, 'Stag Hunt', 'business', '0.200'], [XSS_MODEL, 'Stag Hunt', 'friend-sharing', '0.600'],
    ['Plain', 'Stag Hunt', 'business', '0.500'], ['Plain', 'Stag Hunt', 'friend-sharing', '0.550']]) {
    rows.push([q(m), g, f, '100', r, q(XSS_NOTE)].join(','));
  }
  const path = join(dir, 'xss.csv');
  writeFileSync(path, rows.join('\n') + '\n');
  return path;
}
