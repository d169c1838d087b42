import { promptsMsg } from './messages.js';
/**
 * The one placeholder rule of every template a design may write — framing stories, repeated
 * round prompts, history lines, context-enrichment facts and formats (docs/methods.md §18a):
 *
 * - `{name}` is a placeholder; the name must be one the template's kind knows;
 * - `{{` and `}}` are a literal `{` and `}`;
 * - any other brace — an unclosed `{`, a stray `}`, `{own_payoff:.2f}` — is refused.
 *
 * A template is parsed once into literal and placeholder parts (`parseTemplate`) and filled by
 * `fillParts`; nothing else in samegame reads braces.
 */

export type TemplatePart = { readonly text: string } | { readonly name: string };

export interface TemplateFault {
  /** 1-based line within the template where the fault is. */
  readonly line: number;
  readonly message: string;
}

export type ParsedTemplate = { readonly parts: readonly TemplatePart[]; readonly fault?: undefined } | { readonly fault: TemplateFault };

const NAME = /^[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z0-9_]+)?$/;

const lineAt = (text: string, i: number) => text.slice(0, i).split('\n').length;

/** The parts of a template, or the first fault (unknown placeholder, unclosed or stray brace). */
export function parseTemplate(text: string, known: readonly string[]): ParsedTemplate {
  const parts: TemplatePart[] = [];
  let lit = '';
  const fault = (i: number, message: string): ParsedTemplate => ({ fault: { line: lineAt(text, i), message } });
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === '}') {
      if (text[i + 1] !== '}') return fault(i, promptsMsg.strayClose());
      lit += '}';
      i++;
    } else if (ch === '{') {
      if (text[i + 1] === '{') { lit += '{'; i++; continue; }
      const end = text.slice(i + 1).search(/[{}\n]/);
      if (end < 0 || text[i + 1 + end] !== '}') return fault(i, promptsMsg.unclosed(text.slice(i, i + 1 + Math.min(end < 0 ? 20 : end, 20))));
      const name = text.slice(i + 1, i + 1 + end);
      if (!NAME.test(name)) return fault(i, promptsMsg.notPlaceholder(name, known));
      if (!known.includes(name)) return fault(i, promptsMsg.unknown(name, known));
      if (lit !== '') { parts.push({ text: lit }); lit = ''; }
      parts.push({ name });
      i += end + 1;
    } else {
      lit += ch;
    }
  }
  if (lit !== '') parts.push({ text: lit });
  return { parts };
}

/** The placeholder names of parsed parts, in order of first use. */
export function placeholdersOf(parts: readonly TemplatePart[]): string[] {
  return [...new Set(parts.flatMap((p) => ('name' in p ? [p.name] : [])))];
}

/** The placeholder names of a template ([] when it breaks the rule: its problem is reported where it is checked). */
export function namesIn(text: string, known: readonly string[]): string[] {
  const t = parseTemplate(text, known);
  return t.fault ? [] : placeholdersOf(t.parts);
}

/** The literal text of parsed parts (braces unescaped), placeholders left out. */
export function literalText(parts: readonly TemplatePart[]): string {
  return parts.map((p) => ('text' in p ? p.text : '\u0000')).join('');
}

/** A filled template is at most 8 Mi characters (about two million tokens: above every provider's context window). */
export const MAX_FILLED_CHARS = 8 * 2 ** 20;

/** A template whose filled text would pass MAX_FILLED_CHARS (placeholders repeated, or long values); thrown before joining. */
export class FilledTooLong extends Error {
  constructor(readonly chars: number) {
    super(`a filled template of ${chars} characters (at most ${MAX_FILLED_CHARS})`);
  }
}

/** Fill parsed parts; every placeholder must have a value (the kind's known names). Never builds a text above MAX_FILLED_CHARS. */
export function fillParts(parts: readonly TemplatePart[], values: Readonly<Record<string, string | number>>): string {
  const texts = parts.map((p) => {
    if ('text' in p) return p.text;
    if (!Object.hasOwn(values, p.name)) throw new Error(`no value for placeholder {${p.name}}`);
    return String(values[p.name]);
  });
  const chars = texts.reduce((a, t) => a + t.length, 0);
  if (chars > MAX_FILLED_CHARS) throw new FilledTooLong(chars);
  return texts.join('');
}

/** Parse a template that was validated when its design was read (a fault here is a bug). */
export function parsedParts(text: string, known: readonly string[]): readonly TemplatePart[] {
  const t = parseTemplate(text, known);
  if (t.fault) throw new Error(`template not validated: ${t.fault.message}`);
  return t.parts;
}

/** Fill a validated template. */
export function fillTemplate(text: string, known: readonly string[], values: Readonly<Record<string, string | number>>): string {
  return fillParts(parsedParts(text, known), values);
}

/**
 * The problem with a template of a design field, or undefined: a fault of the rule above, or,
 * when `needsPlaceholder`, a template with no placeholder at all (it would send the same text
 * whatever happens). The message names the template's line when it has several.
 */
export function templateProblem(text: string, known: readonly string[], needsPlaceholder: boolean): string | undefined {
  const f = templateFault(text, known, needsPlaceholder);
  return f === undefined ? undefined : `${f.line !== undefined && text.includes('\n') ? promptsMsg.atLine(f.line) : ''}${f.message}`;
}

/** The fault of a template as templateProblem finds it, with the template line when it has one. */
export function templateFault(text: string, known: readonly string[], needsPlaceholder: boolean): { readonly message: string;
  readonly line?: number } | undefined {
  const t = parseTemplate(text, known);
  if (t.fault) return t.fault;
  if (needsPlaceholder && placeholdersOf(t.parts).length === 0) return { message: promptsMsg.noPlaceholder(known) };
  return undefined;
}
