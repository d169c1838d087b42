/**
 * The command line that regenerates an output, built in one place for every command
 * (reproduce, report, audit, analyze of both design kinds) from the settings that produced it:
 * every flag that can change a result is named, with its value, so the line printed in a report
 * and recorded in metrics.json / audit.json / selective.json reproduces those files.
 */

/** A flag's value: a scalar, a repeated flag (list), a repeated KEY=VALUE flag (record), or absent. */
export type FlagValue = string | number | boolean | undefined | readonly string[] | Readonly<Record<string, string>>;

/** A shell word: quoted unless it is plain. */
export function shellWord(s: string): string {
  return /^[\w./=:@%+-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

/** camelCase setting name → --kebab-case flag. */
const flagName = (key: string) => `--${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;

function flagWords(key: string, v: FlagValue): string[] {
  const f = flagName(key);
  if (v === undefined || v === false) return [];
  if (v === true) return [f];
  if (typeof v === 'string' || typeof v === 'number') return [f, String(v)];
  if (Array.isArray(v)) return (v as readonly string[]).flatMap((x) => [f, x]);
  return Object.entries(v as Readonly<Record<string, string>>).flatMap(([k, x]) => [f, `${k}=${x}`]);
}

/**
 * `samegame COMMAND POSITIONAL… --flag value …`, flags in the order given, absent ones left out,
 * every word shell-quoted where needed.
 */
export function regenerateCommand(command: string, positional: readonly string[], flags: Readonly<Record<string, FlagValue>>): string {
  const words = ['samegame', command, ...positional, ...Object.entries(flags).flatMap(([k, v]) => flagWords(k, v))];
  return words.map(shellWord).join(' ');
}

/**
 * The same command for a report page: one flag per line, joined by ` \` continuations, so a long
 * command wraps where a shell still reads it as one (a quoted value is never split).
 */
export function wrappedCommand(line: string): string {
  let out = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (c === "'") quoted = !quoted;
    if (!quoted && c === ' ' && line.startsWith('--', i + 1)) { out += ' \\\n  '; continue; }
    out += c;
  }
  return out;
}
