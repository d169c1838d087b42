/**
 * Log format descriptions: read a YAML description, validate it (errors name the file, the line,
 * the path in the document and what was expected, as for designs), and check the rules the schema
 * cannot express.
 */
import { readRegular } from '../../core/input-file.js';
import { checkUtf8, MAX_INPUT_BYTES } from '../reader-rules.js';
import { UserError } from '../../core/errors.js';
import { parseYamlMapping, throwProblems, zodProblems, type Path, type Problem } from '../../core/doc-problems.js';
import { logFormatSchema, type LogFormat, type ValueSpec } from './schema.js';
import { specColumns, templateParts } from './values.js';
import { constantProblems } from './names.js';
import { sourcesLogsMsg } from './messages.js';

export const LOG_FORMAT_SCHEMA_FILE = 'data/log-formats/log-format.schema.json';

/** Every value spec of the description with its path. */
function specsOf(f: LogFormat): Array<[Path, ValueSpec]> {
  const out: Array<[Path, ValueSpec]> = [[['game'], f.game], [['framing'], f.framing]];
  if (typeof f.match === 'object') out.push([['match'], f.match]);
  if (f.round) out.push([['round'], f.round]);
  for (const [k, v] of Object.entries(f.factors ?? {})) out.push([['factors', k], v]);
  if ('labels' in f.actions && f.actions.by) out.push([['actions', 'by'], f.actions.by]);
  f.seats.forEach((s, i) => {
    out.push([['seats', i, 'model'], s.model], [['seats', i, 'opponent'], s.opponent]);
    if (s.seat) out.push([['seats', i, 'seat'], s.seat]);
    for (const [k, v] of Object.entries(s.factors ?? {})) out.push([['seats', i, 'factors', k], v]);
  });
  return out;
}

/** Templates well formed, and every column read is one of the format's columns. */
function columnProblems(f: LogFormat): Problem[] {
  const out: Problem[] = [];
  const known = new Set(f.columns);
  const need = (path: Path, c: string) => { if (!known.has(c)) out.push({ path, message: sourcesLogsMsg.columnNotInHeader(c) }); };
  for (const [path, spec] of specsOf(f)) {
    if ('template' in spec) {
      const parts = templateParts(spec.template);
      if (!parts) { out.push({ path: [...path, 'template'], message: sourcesLogsMsg.badTemplate(spec.template) }); continue; }
      const cols = specColumns(spec);
      for (const c of Object.keys(spec.values ?? {})) if (!cols.includes(c)) out.push({ path: [...path, 'values', c],
        message: sourcesLogsMsg.valuesNotInTemplate(c) });
    }
    for (const c of specColumns(spec)) need([...path, 'column' in spec ? 'column' : 'template'], c);
  }
  f.seats.forEach((s, i) => {
    for (const k of ['action', 'payoff', 'opponent_payoff', 'opponent_action', 'total'] as const) {
      const c = s[k];
      if (c !== undefined) need(['seats', i, k], c);
    }
  });
  return out;
}

/** What each shape needs and refuses. */
function shapeProblems(f: LogFormat): Problem[] {
  const out: Problem[] = [];
  const seats = f.shape === 'decision' ? 1 : 2;
  if (f.seats.length !== seats) out.push({ path: ['seats'], message: sourcesLogsMsg.shapeSeats(f.shape,
    seats === 1 ? 'one seat entry' : 'two seat entries (seat 1, seat 2)') });
  if (f.shape === 'match') {
    if (f.match !== 'row') out.push({ path: ['match'], message: sourcesLogsMsg.matchMustBeRow() });
    if (f.round) out.push({ path: ['round'], message: sourcesLogsMsg.shapeRefuses('match', 'round', 'the round is the position in the list') });
  } else {
    if (f.match === 'row') out.push({ path: ['match'], message: sourcesLogsMsg.matchRowOnly() });
    if (!f.round) out.push({ path: ['round'], message: sourcesLogsMsg.shapeNeeds(f.shape, 'round') });
  }
  for (const k of ['played_rounds', 'max_rounds'] as const) {
    const c = f[k];
    if (c !== undefined && !f.columns.includes(c)) out.push({ path: [k], message: sourcesLogsMsg.columnNotInHeader(c) });
  }
  f.seats.forEach((s, i) => {
    if (s.total !== undefined && s.payoff === undefined) out.push({ path: ['seats', i, 'total'], message: sourcesLogsMsg.totalNeedsPayoff() });
    if (s.total !== undefined && f.shape === 'match') out.push({ path: ['seats', i, 'total'], message: sourcesLogsMsg.shapeRefuses('match', 'total',
      'a running total is a column of a round') });
    if (f.shape === 'decision') return;
    for (const k of ['seat', 'opponent_action', 'opponent_payoff'] as const) {
      if (s[k] !== undefined) out.push({ path: ['seats', i, k], message: sourcesLogsMsg.shapeRefuses(f.shape, k, 'the row holds both seats') });
    }
  });
  return out;
}

/** Decoding by payoffs: payoff columns present and four distinct cells; label maps not empty. */
function actionProblems(f: LogFormat): Problem[] {
  const out: Problem[] = [];
  const a = f.actions;
  if ('payoffs' in a) {
    f.seats.forEach((s, i) => {
      if (s.payoff === undefined) out.push({ path: ['seats', i, 'payoff'], message: sourcesLogsMsg.needsPayoff('payoff') });
      if (f.shape === 'decision' && s.opponent_payoff === undefined) out.push({ path: ['seats', i, 'opponent_payoff'],
        message: sourcesLogsMsg.needsPayoff('opponent_payoff') });
    });
    const cells = (['C', 'D'] as const).flatMap((r) => (['C', 'D'] as const).map((c) => [`${r}${c}`, a.payoffs[r][c].join('/')] as const));
    const seen = new Map<string, string>();
    for (const [name, pay] of cells) {
      const first = seen.get(pay);
      if (first) out.push({ path: ['actions', 'payoffs', name[0], name[1]], message: sourcesLogsMsg.ambiguousMatrix(first, name) });
      else seen.set(pay, name);
    }
  } else {
    for (const [k, m] of Object.entries(a.labels)) {
      const acts = Object.values(m);
      const missing = (['C', 'D'] as const).find((x) => !acts.includes(x));
      if (acts.length === 0) out.push({ path: ['actions', 'labels', k], message: sourcesLogsMsg.emptyLabelMap() });
      else if (missing !== undefined) out.push({ path: ['actions', 'labels', k], message: sourcesLogsMsg.labelMapNeedsBoth(missing) });
    }
    for (const k of Object.keys(a.skip ?? {})) if (Object.prototype.hasOwnProperty.call(a.labels, k)) out.push({ path: ['actions', 'skip', k],
      message: sourcesLogsMsg.skipAndLabels(k) });
  }
  return out;
}

/** Problems of a schema-valid description that the schema cannot express (empty: usable). */
export function formatProblems(f: LogFormat): Problem[] {
  return [...shapeProblems(f), ...columnProblems(f), ...actionProblems(f), ...constantProblems(specsOf(f))];
}

/** Validate a description from its YAML text; `file` names it in errors. */
export function parseLogFormat(text: string, file: string): LogFormat {
  const { doc, lc, data } = parseYamlMapping(text, (line, detail) => sourcesLogsMsg.formatYamlSyntax(file, line, detail),
    () => sourcesLogsMsg.formatNotMapping(file));
  const r = logFormatSchema.safeParse(data);
  const found = r.success ? formatProblems(r.data) : zodProblems(r.error.issues, LOG_FORMAT_SCHEMA_FILE);
  throwProblems(found, doc, lc, (line, path, message) => sourcesLogsMsg.formatField(file, line, path, message));
  return r.data!;
}

/** Read and validate a description file. */
export function loadLogFormat(path: string, file = path): LogFormat {
  const r = readRegular(path, MAX_INPUT_BYTES); // a FIFO or a device is refused before a byte is read
  if (!('bytes' in r)) throw new UserError(sourcesLogsMsg.formatUnreadable(file, 'reason' in r ? r.reason : `${r.size} bytes; at most ${MAX_INPUT_BYTES}`));
  checkUtf8(r.bytes, file); // never read with U+FFFD in place
  return parseLogFormat(r.bytes.toString('utf8'), file);
}
