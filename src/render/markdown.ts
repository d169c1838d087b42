/**
 * A generated Markdown document made inert: Markdown passes raw HTML through, so a model named
 * `<img src=x onerror=alert(1)>` or `</script>` would become markup wherever the file is viewed.
 * Every `<` that could open a tag, comment or declaration becomes `&lt;`, every `&` that could
 * start a character reference `&amp;`, and `](` (the middle of a link) is escaped. The documents
 * write no HTML of their own, so only text from inputs changes.
 */
export function inertMarkdown(doc: string): string {
  return doc.replace(/&(?=#?[A-Za-z0-9]+;)/g, '&amp;').replace(/<(?=[A-Za-z/!?])/g, '&lt;').replace(/\]\(/g, '\\](');
}

/** Text from an input (a model name, a note) made safe inside a Markdown table cell. */
export function mdCell(s: string): string {
  return s.replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
}
