/** Messages of templates: the placeholder rule, framing templates and the payoff-equivalence check. */
const q = (s: string) => JSON.stringify(s);
const list = (known: readonly string[]) => known.map((k) => `{${k}}`).join(' ');

export const templateMsg = {
  strayClose: () => 'a stray "}" (write }} for a literal brace)',
  unclosed: (from: string) => `unclosed brace at ${q(from)} (write {{ for a literal brace)`,
  notPlaceholder: (inner: string, known: readonly string[]) => `{${inner}} is not a placeholder (known: ${list(known)}; write {{ and }} for literal braces)`,
  unknown: (name: string, known: readonly string[]) => `unknown placeholder {${name}} (known: ${list(known)})`,
  atLine: (line: number) => `template line ${line}: `,
  noPlaceholder: (known: readonly string[]) => `the template has no placeholder, so it says the same whatever happens (known: ${list(known)})`,
  fileUnreadable: (file: string, reason: string) => `cannot read the template file ${q(file)} (${reason})`,
  fileTooLarge: (file: string, max: number) => `the template file ${q(file)} is larger than ${max / 1024 / 1024} MiB`,
  fileFault: (file: string, what: string) => `${file}: ${what}`,
  oneSource: () => 'a framing is a built-in family, a template or a template_file: give exactly one of family, template, template_file',
  neverStates: (framing: string, missing: readonly string[]) =>
    `framing ${framing}: the template never states ${missing.map((m) => `{${m}}`).join(', ')} (every prompt must present the whole payoff matrix and both labels: use {payoffs}, or the eight {you.XY} {other.XY}, and {C} {D})`,
  roundNeverStates: () => 'the round prompt never states the payoffs: name {rules} (the framing\'s story with the payoff matrix)',
  hardCoded: (framing: string, value: string, game: string) =>
    `framing ${framing}: the template writes ${value}, a payoff of ${game}, as text; a hard-coded number does not follow the game (use a placeholder such as {you.CC})`,
  formatNeverStates: (format: string, cell: string, missing: readonly string[]) =>
    `format ${format}: the cell ${cell} never states ${missing.map((m) => `{${m}}`).join(', ')} (every prompt must present the whole payoff matrix: {payoffs}, the eight {you.XY} {other.XY}, or {T} {R} {P} {S} in its facts)`,
  oneFormatSource: () => 'a format is a style or a template: give exactly one of style, template, template_file',
  formatSlotsMissing: (format: string, slots: readonly string[]) =>
    `format ${format}: the template never places the slot${slots.length === 1 ? '' : 's'} ${slots.map((x) => `{${x}}`).join(', ')} (every format lays out the same facts)`,
  roundNotRepeated: () => '--round applies to a repeated design (one with a play block)',
  roundBeyond: (round: number, rounds: number) => `--round ${round}: the design plays ${rounds} rounds`,
};
