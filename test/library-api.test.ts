/**
 * The library's commands (docs/architecture.md, "Library"): src/index.ts exports at most one
 * function per command the CLI registers (src/cli/main.ts), and each is the whole pipeline — read
 * the input, analyse it, render, write once — called here end to end on shipped and fixture data,
 * its printed output and its files equal to the CLI's on the same input.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { PassThrough } from 'node:stream';
import { pathToFileURL } from 'node:url';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it, vi } from 'vitest';
import * as lib from '../src/index.js';
import { MemoryLogger } from '../src/index.js';
import { ROOT, runCli } from './helpers/cli.js';

const tmp = () => mkdtempSync(join(tmpdir(), 'samegame-api-'));
const text = (p: string) => readFileSync(p, 'utf8');

/** Every file under `dir`, relative to it, sorted. */
function filesUnder(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d)) {
      const p = join(d, e);
      if (statSync(p).isDirectory()) walk(p); else out.push(relative(dir, p));
    }
  };
  if (existsSync(dir)) walk(dir);
  return out.sort();
}

/** What the library printed (logger.print) is what the CLI printed on standard output, and not nothing. */
function samePrinted(logger: MemoryLogger, stdout: string): void {
  expect(stdout.trim()).not.toBe('');
  expect(logger.printed.join('')).toBe(stdout);
}

/** The commands the CLI registers: the keys of COMMANDS in src/cli/main.ts. */
function registeredCommands(): string[] {
  const src = text(join(ROOT, 'src/cli/main.ts'));
  const block = src.slice(src.indexOf('const COMMANDS'), src.indexOf('};', src.indexOf('const COMMANDS')));
  return [...block.matchAll(/^\s+(\w+): async \(\) =>/gm)].map((m) => m[1]);
}

/**
 * The functions an index exports from src/commands/, by command: a file `commands/<c>.ts` or
 * `commands/<c>-….ts` belongs to command c. `isFunction` says which exported names are functions.
 */
export function commandEntries(indexText: string, isFunction: (name: string) => boolean): Map<string, string[]> {
  const byCommand = new Map<string, string[]>();
  for (const m of indexText.matchAll(/export\s*\{([^}]*)\}\s*from\s*'\.\/commands\/([\w-]+)\.js'/g)) {
    const command = m[2].split('-')[0];
    const names = m[1].split(',').map((s) => s.trim()).filter((s) => s !== '' && !s.startsWith('type '))
      .map((s) => s.split(/\s+as\s+/).pop()!);
    for (const n of names.filter(isFunction)) byCommand.set(command, [...byCommand.get(command) ?? [], n]);
  }
  return byCommand;
}

/** Commands of the CLI with no library function (they print or manage; nothing to compute). */
const CLI_ONLY = ['prompts', 'batches'];

describe('one library function per command', () => {
  const commands = registeredCommands();
  const isFunction = (n: string) => typeof (lib as Record<string, unknown>)[n] === 'function';
  const entries = commandEntries(text(join(ROOT, 'src/index.ts')), isFunction);

  it('every function src/index.ts exports from commands/ is the one entry of a registered command', () => {
    expect(commands).toEqual(expect.arrayContaining(['reproduce', 'report', 'analyze', 'audit', 'coverage', 'plan', 'run', 'export', 'meta', 'init']));
    for (const [command, names] of entries) {
      expect(commands, `${names.join(', ')}: not a registered command`).toContain(command);
      expect(names, `${command} has more than one entry`).toHaveLength(1);
    }
    const missing = commands.filter((c) => !entries.has(c) && !CLI_ONLY.includes(c));
    expect(missing, 'registered commands without a library function').toEqual([]);
    expect(Object.fromEntries(entries)).toEqual({
      reproduce: ['reproduce'], report: ['report'], analyze: ['analyze'], audit: ['audit'], coverage: ['coverage'], plan: ['plan'],
      run: ['run'], export: ['exportTrials'], meta: ['meta'], init: ['init'], preregister: ['preregister'],
      replay: ['replay'], capsule: ['capsule'], sql: ['sql'],
    });
  });

  it('the check fails on an index with a second entry for a command, or a function of no command', () => {
    const index = [
      "export { analyze, type AnalyzeOptions } from './commands/analyze.js';",
      "export { analyzeTables } from './commands/analyze.js';",
      "export { withFigures as reproduce, DEFAULTS } from './commands/reproduce-outputs.js';",
      "export { logFiles } from './commands/command-options.js';",
    ].join('\n');
    const found = commandEntries(index, (n) => n !== 'DEFAULTS');
    expect(Object.fromEntries(found)).toEqual({ analyze: ['analyze', 'analyzeTables'], reproduce: ['reproduce'], command: ['logFiles'] });
  });
});

describe('each command end to end, as the CLI runs it', () => {
  const dir = tmp();

  it('reproduce: figures, report and tables as one set; figures: false writes the tables alone; the same table and files as the CLI', async () => {
    const logger = new MemoryLogger();
    const res = await lib.reproduce({ out: join(dir, 'repro'), reps: 200, logger });
    const cli = await runCli(['reproduce', '--out', join(dir, 'repro-cli'), '--reps', '200']);
    expect(cli.code, cli.stderr).toBe(0);
    samePrinted(logger, cli.stdout);
    expect(logger.printed.join('')).toContain('Pooled');
    const files = filesUnder(join(dir, 'repro'));
    expect(files).toEqual(filesUnder(join(dir, 'repro-cli')));
    expect(files).toEqual(expect.arrayContaining(['reports/report.html', 'reports/table3.csv', 'reports/metrics.json']));
    expect(files.filter((f) => f.startsWith('figures/') && f.endsWith('.png')).length).toBeGreaterThan(0);
    expect(res.files.map((f) => relative(join(dir, 'repro'), f.path)).sort()).toEqual(files);
    for (const f of ['reports/table3.csv', 'reports/table2.csv', 'reports/metrics.json']) expect(text(join(dir, 'repro', f)), f).toBe(text(join(dir, 'repro-cli', f)));

    const plain = await lib.reproduce({ out: join(dir, 'repro-tables'), reps: 200, figures: false });
    const tables = filesUnder(join(dir, 'repro-tables'));
    expect(tables.every((f) => f.startsWith('reports/'))).toBe(true);
    expect(tables).not.toContain('reports/report.html');
    expect(text(join(dir, 'repro-tables', 'reports/table3.csv'))).toBe(text(join(dir, 'repro', 'reports/table3.csv')));
    expect(plain.table3).toEqual(res.table3);
  });

  it('report: reports/report.html alone, as the CLI writes it', async () => {
    const res = lib.report({ out: join(dir, 'report'), reps: 200 });
    const cli = await runCli(['report', '--out', join(dir, 'report-cli'), '--reps', '200']);
    expect(cli.code, cli.stderr).toBe(0);
    expect(filesUnder(join(dir, 'report'))).toEqual(['reports/report.html']);
    expect(res.files).toHaveLength(1);
    expect(text(join(dir, 'report', 'reports/report.html'))).toBe(text(join(dir, 'report-cli', 'reports/report.html')));
  });

  it('init → run (simulated provider) → analyze, export, plan and coverage of the store: the numbers the CLI prints', async () => {
    const design = lib.init({ name: 'libtest', dir });
    const cliDir = tmp();
    expect((await runCli(['init', 'libtest'], { cwd: cliDir })).code).toBe(0);
    expect(text(design.file)).toBe(text(join(cliDir, 'libtest.yaml')));

    const store = join(dir, 'libtest.sqlite');
    const ran = await lib.run({ design: design.file, store, logger: new MemoryLogger() });
    expect(ran).toEqual({ store, runId: 1 });

    const logger = new MemoryLogger();
    const res = await lib.analyze({ store, out: join(dir, 'an'), reps: 200, logger });
    const cli = await runCli(['analyze', store, '--out', join(dir, 'an-cli'), '--reps', '200']);
    expect(cli.code, cli.stderr).toBe(0);
    expect(res.kind).toBe('two-framing');
    if (res.kind !== 'two-framing') return;
    expect(res.table3.map((r) => r.model)).toEqual(['Sim', 'Pooled']);
    samePrinted(logger, cli.stdout);
    expect(filesUnder(join(dir, 'an'))).toEqual(filesUnder(join(dir, 'an-cli')));
    expect(filesUnder(join(dir, 'an'))).toEqual(expect.arrayContaining(['reports/report.html', 'reports/invalid.csv', 'reports/lambda.csv']));
    for (const f of ['reports/table3.csv', 'reports/invalid.csv']) expect(text(join(dir, 'an', f)), f).toBe(text(join(dir, 'an-cli', f)));

    const exported = await lib.exportTrials({ store, format: 'csv', out: join(dir, 'trials.csv') });
    const cliExport = await runCli(['export', store, '--format', 'csv']);
    expect(exported).toEqual({ trials: 80, out: join(dir, 'trials.csv'), sidecar: join(dir, 'trials.csv.provenance.json') }); // 1 model × 2 games × 2 framings × 20 trials
    expect(text(join(dir, 'trials.csv'))).toBe(cliExport.stdout);

    const planned = new MemoryLogger();
    const p = await lib.plan({ store, targetHalfwidth: 0.2, reps: 200, logger: planned });
    const cliPlan = await runCli(['plan', store, '--target-halfwidth', '0.2', '--reps', '200']);
    expect(cliPlan.code, cliPlan.stderr).toBe(0);
    samePrinted(planned, cliPlan.stdout);
    expect('attenuation' in p && p.attenuation).toEqual({ a: 1, why: 'direct' });

    const cov = new MemoryLogger();
    const c = await lib.coverage({ store, out: join(dir, 'cov'), sims: 5, reps: 50, logger: cov });
    const cliCov = await runCli(['coverage', store, '--out', join(dir, 'cov-cli'), '--sims', '5', '--reps', '50']);
    expect(cliCov.code, cliCov.stderr).toBe(0);
    samePrinted(cov, cliCov.stdout);
    expect(text(join(dir, 'cov', 'reports/coverage.csv'))).toBe(text(join(dir, 'cov-cli', 'reports/coverage.csv')));
    expect(c.rows.length).toBeGreaterThan(0);
    expect(filesUnder(join(dir, 'cov'))).toEqual(filesUnder(join(dir, 'cov-cli')));
    expect(filesUnder(join(dir, 'cov')).some((f) => f.startsWith('figures/coverage'))).toBe(true);
    await lib.coverage({ store, out: join(dir, 'cov-tables'), sims: 5, reps: 50, figures: false });
    expect(filesUnder(join(dir, 'cov-tables'))).toEqual(['reports/coverage.csv']);
    expect(text(join(dir, 'cov-tables', 'reports/coverage.csv'))).toBe(text(join(dir, 'cov', 'reports/coverage.csv')));
  });

  it('analyze on a published log (akata) with figures: the repeated analysis, as the CLI prints and writes it', async () => {
    const log = join(ROOT, 'data/akata-2023/experiment_pd.csv');
    const logger = new MemoryLogger();
    const res = await lib.analyze({ trials: [log], format: 'akata', out: join(dir, 'log'), reps: 200, logger });
    const cli = await runCli(['analyze', '--trials', log, '--format', 'akata', '--out', join(dir, 'log-cli'), '--reps', '200']);
    expect(cli.code, cli.stderr).toBe(0);
    expect(res.kind).toBe('repeated');
    samePrinted(logger, cli.stdout);
    const files = filesUnder(join(dir, 'log'));
    expect(files).toEqual(filesUnder(join(dir, 'log-cli')));
    expect(files).toEqual(expect.arrayContaining(['reports/report.html', 'reports/cells.csv']));
    expect(files.some((f) => f.startsWith('figures/') && f.endsWith('.svg'))).toBe(true);
    expect(text(join(dir, 'log', 'reports/cells.csv'))).toBe(text(join(dir, 'log-cli', 'reports/cells.csv')));
  });

  it('audit: the summary and the files the CLI writes; figures: false writes audit.md and audit.json alone', async () => {
    const data = join(ROOT, 'test/fixtures/trials/counts.csv');
    const logger = new MemoryLogger();
    const res = await lib.audit({ data, out: join(dir, 'audit'), reps: 200, searchReps: 100, readingError: 0, logger });
    const cli = await runCli(['audit', '--data', data, '--out', join(dir, 'audit-cli'), '--reps', '200', '--search-reps', '100', '--reading-error', '0']);
    expect(cli.code, cli.stderr).toBe(0);
    samePrinted(logger, cli.stdout);
    expect(logger.printed.join('')).toMatch(/consistency/i);
    expect(filesUnder(join(dir, 'audit'))).toEqual(filesUnder(join(dir, 'audit-cli')));
    expect(text(join(dir, 'audit', 'reports/audit.md'))).toBe(text(join(dir, 'audit-cli', 'reports/audit.md')));
    expect(res.verification.passed).toBe(true);
    await lib.audit({ data, out: join(dir, 'audit-tables'), reps: 200, searchReps: 100, readingError: 0, figures: false });
    expect(filesUnder(join(dir, 'audit-tables'))).toEqual(['reports/audit.json', 'reports/audit.md']);
    expect(text(join(dir, 'audit-tables', 'reports/audit.md'))).toBe(text(join(dir, 'audit', 'reports/audit.md')));
  });

  it('meta on data/meta: the pooled table and files the CLI writes; figures: false writes the tables alone', async () => {
    const manifest = join(ROOT, 'data/meta/lore-heydari.yaml');
    const logger = new MemoryLogger();
    const res = await lib.meta({ manifest, out: join(dir, 'meta'), logger });
    const cli = await runCli(['meta', manifest, '--out', join(dir, 'meta-cli')]);
    expect(cli.code, cli.stderr).toBe(0);
    samePrinted(logger, cli.stdout);
    expect(filesUnder(join(dir, 'meta'))).toEqual(filesUnder(join(dir, 'meta-cli')));
    expect(text(join(dir, 'meta', 'reports/meta.csv'))).toBe(text(join(dir, 'meta-cli', 'reports/meta.csv')));
    expect(res.analysis.pooled.some((p) => p.scope === 'overall')).toBe(true);
    await lib.meta({ manifest, out: join(dir, 'meta-tables'), figures: false });
    const tables = filesUnder(join(dir, 'meta-tables'));
    expect(tables).toContain('reports/meta.csv');
    expect(tables.some((f) => f.startsWith('figures/') || f === 'reports/report.html')).toBe(false);
  });
});

/**
 * `run` from the library leaves the process to its caller: it never listens to SIGINT or SIGTERM
 * nor calls process.exit; the caller stops it through its signals (the CLI turns Ctrl-C into them).
 */
describe('run from the library: no process signal handlers, no exit; stopped through its signals', () => {
  afterEach(() => { vi.restoreAllMocks(); });
  const listeners = () => [process.listenerCount('SIGINT'), process.listenerCount('SIGTERM')];
  const noExit = () => vi.spyOn(process, 'exit').mockImplementation(((code?: number) => { throw new Error(`process.exit(${code})`); }) as never);

  it('a whole run (simulated provider) adds no SIGINT or SIGTERM listener while it runs, and never exits', async () => {
    const dir = tmp();
    const design = lib.init({ name: 'signals', dir });
    const before = listeners();
    const seen: number[][] = [];
    const exit = noExit();
    const logger: lib.Logger = { info: () => { seen.push(listeners()); }, warn: () => {}, progress: () => { seen.push(listeners()); } };
    expect(await lib.run({ design: design.file, store: join(dir, 's.sqlite'), logger })).toEqual({ store: join(dir, 's.sqlite'), runId: 1 });
    expect(seen.length).toBeGreaterThan(0);
    for (const s of seen) expect(s).toEqual(before);
    expect(listeners()).toEqual(before);
    expect(exit).not.toHaveBeenCalled();
  });

  it('aborting its signal drops the call in flight and rejects with exit code 130; the trials stored are kept', async () => {
    const dir = tmp();
    // Two answers at once, then a call that never settles (it ignores its own signal).
    writeFileSync(join(dir, 'p.mjs'), `
let calls = 0; let third;
export const thirdCall = new Promise((r) => { third = r; });
export function createProvider() {
  return { id: 'p', complete({ spec }) {
    calls++;
    if (calls <= 2) return Promise.resolve({ text: spec.actionWords[0], raw: '{}', request: {} });
    third();
    return new Promise(() => {});
  } };
}
`);
    writeFileSync(join(dir, 'd.yaml'), 'name: d\nmodels:\n  - { id: A, provider: ./p.mjs }\ngames: [harmony]\nframings: [business]\ntrials: 5\nscoring: sample\n');
    const store = join(dir, 's.sqlite');
    const before = listeners();
    const exit = noExit();
    const ctl = new AbortController();
    const running = lib.run({ design: join(dir, 'd.yaml'), store, concurrency: 1, signal: ctl.signal });
    const plugin = await import(pathToFileURL(join(dir, 'p.mjs')).href) as { thirdCall: Promise<void> };
    await plugin.thirdCall;
    expect(listeners()).toEqual(before);
    ctl.abort();
    const err = await running.then(() => undefined, (e: unknown) => e);
    expect(err).toBeInstanceOf(lib.UserError);
    expect((err as lib.UserError).exitCode).toBe(130);
    expect((err as Error).message).toMatch(/aborted/);
    const db = new Database(store, { readonly: true });
    try {
      expect(db.prepare('SELECT rep, status FROM trials ORDER BY rep').all()).toEqual([{ rep: 0, status: 'ok' }, { rep: 1, status: 'ok' }]);
    } finally { db.close(); }
    expect(exit).not.toHaveBeenCalled();
  });

  it('a stop signal already aborted: rejects with exit code 130 before the store is created', async () => {
    const dir = tmp();
    const design = lib.init({ name: 'stopped', dir });
    const err = await lib.run({ design: design.file, store: join(dir, 's.sqlite'), stop: AbortSignal.abort() }).then(() => undefined, (e: unknown) => e);
    expect((err as lib.UserError).exitCode).toBe(130);
    expect(existsSync(join(dir, 's.sqlite'))).toBe(false);
  });
});

/** exportTrials writes where it is told: a file, a stream, or standard output when given '-'; nowhere by default. */
describe('exportTrials: out is always said', () => {
  afterEach(() => { vi.restoreAllMocks(); });

  it('without out: refused in one line, nothing written to standard output; a stream and \'-\' get the file\'s records', async () => {
    const dir = tmp();
    const design = lib.init({ name: 'exported', dir });
    const store = join(dir, 's.sqlite');
    await lib.run({ design: design.file, store });
    await lib.exportTrials({ store, format: 'csv', out: join(dir, 'trials.csv') });
    const file = text(join(dir, 'trials.csv'));
    expect(file.split('\n').length).toBeGreaterThan(2);

    const written: string[] = [];
    vi.spyOn(process.stdout, 'write').mockImplementation(((chunk: string) => { written.push(String(chunk)); return true; }) as never);
    const err = await lib.exportTrials({ store, format: 'csv' } as unknown as lib.ExportOptions).then(() => undefined, (e: unknown) => e);
    expect(err).toBeInstanceOf(lib.UserError);
    expect((err as Error).message).toMatch(/^exportTrials: give out/);
    expect(written).toEqual([]);

    expect(await lib.exportTrials({ store, format: 'csv', out: '-' })).toEqual({ trials: 80 });
    vi.restoreAllMocks();
    expect(written.join('')).toBe(file);
    expect(existsSync('-')).toBe(false);

    const sink = new PassThrough();
    const got: Buffer[] = [];
    sink.on('data', (d: Buffer) => got.push(d));
    expect(await lib.exportTrials({ store, format: 'csv', out: sink })).toEqual({ trials: 80 });
    expect(Buffer.concat(got).toString('utf8')).toBe(file);
  });
});
