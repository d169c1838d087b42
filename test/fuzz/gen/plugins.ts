/**
 * Misbehaving provider plug-ins from a seeded generator: for each trial and attempt a behaviour —
 * a good answer, a response of the wrong shape (text a number, raw an object, usage negative or
 * fractional, modelSnapshot a number, null, an array, no request), an answer no parser reads, a
 * thrown error of each kind (a retryAfterMs that is NaN, negative or past any timer), a call that
 * never settles — written into a module named by two models. The run must keep the contract,
 * release its lock, and store for every trial what an independent replay of the behaviours says:
 * its status, its attempts and its action, answered by its own model's provider instance; an
 * answer of the wrong shape breaks the provider contract: the run ends with exit 2 and one line
 * naming the plug-in, and every trial it stored before is still as the replay says.
 */
import Database from 'better-sqlite3';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stream, type FuzzCase } from './common.js';

const GOOD = ['good-C', 'good-D'] as const;
const MALFORMED = ['text-number', 'raw-object', 'usage-negative', 'usage-float', 'snapshot-number', 'null', 'array', 'no-request'] as const;
const RETRYABLE_THROWS = ['throw-server', 'throw-rate-limit-nan', 'throw-rate-limit-negative'] as const;
const FINAL_THROWS = ['throw-client', 'throw-plain'] as const;
const OTHER = ['unparseable', 'hang'] as const;
type Behaviour = typeof GOOD[number] | typeof MALFORMED[number] | typeof RETRYABLE_THROWS[number] | typeof FINAL_THROWS[number] | typeof OTHER[number];

const MODULE = (behaviours: Record<string, Behaviour[][]>, errorsUrl: string) => `
import { ProviderError } from ${JSON.stringify(errorsUrl)};
const B = ${JSON.stringify(behaviours)};
const calls = new Map();
export function createProvider(model) {
  const mine = model.id;
  return { id: 'fuzz', complete({ spec }) {
    const key = mine + '|' + spec.rep;
    const n = (calls.get(key) ?? 0) + 1; calls.set(key, n);
    const b = B[mine][spec.rep][n - 1];
    const good = (w) => ({ text: w, raw: JSON.stringify({ by: mine, asked: spec.model.id }), request: { rep: spec.rep } });
    const w = spec.actionWords;
    switch (b) {
      case 'good-C': return Promise.resolve(good(w[0]));
      case 'good-D': return Promise.resolve(good(w[1]));
      case 'unparseable': return Promise.resolve(good('perhaps'));
      case 'text-number': return Promise.resolve({ ...good(w[0]), text: 1 });
      case 'raw-object': return Promise.resolve({ ...good(w[0]), raw: { by: mine } });
      case 'usage-negative': return Promise.resolve({ ...good(w[0]), usage: { inputTokens: -3, outputTokens: 1 } });
      case 'usage-float': return Promise.resolve({ ...good(w[0]), usage: { inputTokens: 2, outputTokens: 0.5 } });
      case 'snapshot-number': return Promise.resolve({ ...good(w[0]), modelSnapshot: 4 });
      case 'null': return Promise.resolve(null);
      case 'array': return Promise.resolve([good(w[0])]);
      case 'no-request': return Promise.resolve({ text: w[0], raw: '{}' });
      case 'throw-server': return Promise.reject(new ProviderError('server', 'status 500', 500));
      case 'throw-rate-limit-nan': return Promise.reject(new ProviderError('rate_limit', 'slow', 429, NaN));
      case 'throw-rate-limit-negative': return Promise.reject(new ProviderError('rate_limit', 'slow', 429, -5));
      case 'throw-client': return Promise.reject(new ProviderError('client', 'bad request', 400));
      case 'throw-plain': throw new Error('the plug-in itself failed');
      case 'hang': return new Promise(() => {});
    }
  } };
}
`;

/**
 * The independent replay: status, attempts and action of a trial whose attempts behave as listed;
 * `breaks` when an answer of the wrong shape comes first (the contract is broken: the run stops, the trial is not stored).
 */
function replay(list: readonly Behaviour[]): { status: string; attempts: number; action: string | null } {
  for (let n = 1; n <= list.length; n++) {
    const b = list[n - 1];
    if ((MALFORMED as readonly string[]).includes(b)) return { status: 'breaks', attempts: n, action: null };
    if (b === 'good-C' || b === 'good-D') return { status: 'ok', attempts: n, action: b === 'good-C' ? 'C' : 'D' };
    if (b === 'unparseable') return { status: 'invalid', attempts: n, action: null };
    if ((FINAL_THROWS as readonly string[]).includes(b)) return { status: 'error', attempts: n, action: null };
  }
  return { status: 'error', attempts: list.length, action: null };
}

export function pluginCases(dir: string, seed: number, count: number, errorsUrl: string): FuzzCase[] {
  const r = stream(seed);
  const cases: FuzzCase[] = [];
  const maxRetries = 1;
  for (let i = 0; i < count; i++) {
    const d = join(dir, `plugin-${i}`);
    mkdirSync(d);
    const trials = 2 + r.int(3);
    // Four cases in ten meet answers of the wrong shape (a contract break ends the run), the others run to their end.
    const pool: Behaviour[] = [...GOOD, ...GOOD, ...(r.next() < 0.4 ? MALFORMED : []), ...RETRYABLE_THROWS, ...FINAL_THROWS, 'unparseable', ...(r.next() < 0.15 ? ['hang' as const] : [])];
    const behaviours: Record<string, Behaviour[][]> = {};
    for (const m of ['A', 'B']) behaviours[m] = Array.from({ length: trials }, () => Array.from({ length: maxRetries + 1 }, () => r.pick(pool)));
    writeFileSync(join(d, 'p.mjs'), MODULE(behaviours, errorsUrl));
    writeFileSync(join(d, 'd.yaml'), `name: f\nmodels:\n  - { id: A, provider: ./p.mjs }\n  - { id: B, provider: ./p.mjs }\ngames: [harmony]\nframings: [business]\ntrials: ${trials}\nscoring: sample\n`);
    const store = join(d, 's.sqlite');
    cases.push({
      name: `run a fuzzed plug-in #${i} ${JSON.stringify(behaviours)}`,
      argv: ['run', join(d, 'd.yaml'), '--store', store, '--max-retries', String(maxRetries), '--timeout-ms', '50', '-q'],
      outputs: [],
      boundMs: 60_000,
      after: (o) => {
        const breaks = Object.entries(behaviours).flatMap(([m, reps]) => reps.map((l, rep) => ({ m, rep, want: replay(l) }))).filter((t) => t.want.status === 'breaks');
        const problems: string[] = [];
        if (breaks.length > 0 && o.code !== 2) problems.push(`a plug-in broke the contract (${breaks.map((t) => `${t.m} rep ${t.rep}`).join(', ')}) but the run ended with ${o.code}`);
        const errors = o.stderr.split('\n').filter((l) => l.startsWith('samegame:'));
        if (breaks.length > 0 && o.code === 2 && (errors.length !== 1 || !/^samegame: plug-in \.\/p\.mjs \(model [AB]\) broke the provider contract: .+$/.test(errors[0]))) problems.push(`the contract break is not one line naming the plug-in: ${o.stderr.slice(0, 300)}`);
        if (breaks.length === 0 && o.code !== 0) return problems;
        const db = new Database(store, { readonly: true });
        const rows = db.prepare('SELECT model, rep, status, attempts, action, response FROM trial_records ORDER BY model, rep').all() as
          { model: string; rep: number; status: string; attempts: number; action: string | null; response: string | null }[];
        const locks = db.prepare('SELECT count(*) FROM writer_lock').pluck().get() as number;
        db.close();
        if (locks !== 0) problems.push('the writer lock is still held');
        if (breaks.length === 0 && rows.length !== 2 * trials) problems.push(`${rows.length} trials stored of ${2 * trials}`);
        for (const t of rows) {
          const want = replay(behaviours[t.model][t.rep]);
          const got = { status: t.status, attempts: t.attempts, action: t.action };
          if (JSON.stringify(got) !== JSON.stringify(want)) problems.push(`${t.model} rep ${t.rep}: stored ${JSON.stringify(got)}, replay says ${JSON.stringify(want)}`);
          if (t.status === 'ok' && JSON.parse(t.response!).by !== t.model) problems.push(`${t.model} rep ${t.rep}: answered by ${t.response}`);
        }
        return problems;
      },
    });
  }
  return cases;
}
