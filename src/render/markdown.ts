/** Text from an input (a model name, a note) made safe inside a Markdown table cell. */
export function mdCell(s: string): string {
  return s.replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
}
