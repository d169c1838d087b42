/**
 * `plan` says which attenuation it plans for. Rates files (reconstructed data) default to the
 * conservative transform a = 0.7; a direct run — planned from a pilot store, or with --direct —
 * defaults to none (a = 1), as `analyze` reports direct runs.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { plannedAttenuation } from '../../src/commands/plan.js';
import { counts, writeStore } from '../helpers/store.js';
import { runCli } from '../helpers/cli.js';
import { runInProcess as run } from '../helpers/in-process.js';
import { refusedInOneLine } from '../helpers/refusals.js';

const RATES = 'data/lore-heydari-2024/rates.csv';
const pooledN = (stdout: string) => Number(stdout.split('\n').find((l) => l.startsWith('pooled'))!.trim().split(/\s{2,}/)[1]);

let dir: string;
beforeAll(() => { dir = mkdtempSync(join(tmpdir(), 'sg-plan-')); });
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('plan states its attenuation', () => {
  it('plan --data … --target-halfwidth 0.01 plans for a = 0.70 and says so', async () => {
    const r = await runCli(['plan', '--data', RATES, '--target-halfwidth', '0.01']);
    expect(r.code).toBe(0);
    const [head, why] = r.stdout.split('\n');
    expect(head).toContain('(attenuation a = 0.70, ');
    expect(why).toContain('attenuation a = 0.70');
    expect(why).toContain('--direct');
  });

  it('--direct plans for a direct run: no attenuation, the same plan as --attenuation 1', async () => {
    const direct = await runCli(['plan', '--data', RATES, '--target-halfwidth', '0.02', '--reps', '200', '--direct']);
    const one = await runCli(['plan', '--data', RATES, '--target-halfwidth', '0.02', '--reps', '200', '--attenuation', '1']);
    const att = await runCli(['plan', '--data', RATES, '--target-halfwidth', '0.02', '--reps', '200']);
    expect([direct.code, one.code, att.code]).toEqual([0, 0, 0]);
    expect(direct.stdout.split('\n')[0]).toContain('(attenuation a = 1.00, ');
    expect(direct.stdout.split('\n')[1]).toContain('direct run: no attenuation (a = 1.00)');
    expect(pooledN(direct.stdout)).toBe(pooledN(one.stdout));
    // The attenuated shift is smaller, so its interval reaches a fixed half-width with fewer trials.
    expect(pooledN(att.stdout)).toBeLessThan(pooledN(direct.stdout));
    const both = await runCli(['plan', '--data', RATES, '--target-halfwidth', '0.02', '--direct', '--attenuation', '0.5']);
    expect(both.code).toBe(2);
  }, 300_000); // four processes: a backstop for a loaded machine, not a measurement

  it('a pilot store plans a direct run by default (a = 1)', async () => {
    const store = join(dir, 'pilot.sqlite');
    const games = ['prisoners-dilemma', 'snowdrift'];
    writeStore(store, { name: 'pilot' }, ['m1', 'm2'].flatMap((model) => games.flatMap((game) =>
      ['business', 'friend-sharing'].map((framing, i) => ({ model, game, framing, actions: counts(10 + 8 * i, 40) })))));
    const r = await runCli(['plan', store, '--target-halfwidth', '0.1', '--reps', '200']);
    expect(r.code).toBe(0);
    expect(r.stdout.split('\n')[1]).toContain('direct run: no attenuation (a = 1.00)');
  });

  it('the rule, by case', async () => {
    expect(plannedAttenuation({})).toEqual({ a: 0.7, why: 'reconstructed' });
    expect(plannedAttenuation({ direct: true })).toEqual({ a: 1, why: 'direct' });
    expect(plannedAttenuation({ store: 's.sqlite' })).toEqual({ a: 1, why: 'direct' });
    expect(plannedAttenuation({ store: 's.sqlite', attenuation: 0.5 })).toEqual({ a: 0.5, why: 'flag' });
  });

  // No function of the plan command is over 60 lines: test/architecture.test.ts checks every source file.
});

/** plan refuses, in one line and before any work, what reproduce and analyze refuse. */
describe('plan refuses what the other commands refuse', () => {
  const tmp = () => mkdtempSync(join(tmpdir(), 'samegame-flags-'));

  const oneLine = refusedInOneLine;

  describe('plan refuses what the other commands refuse', () => {
    const RATES = 'data/lore-heydari-2024/rates.csv';
    const PLAN = ['--target-halfwidth', '0.05', '--reps', '100'];

    it('--base equal to --alt, for --data and --store', async () => {
      const d = tmp();
      const store = join(d, 's.sqlite');
      writeStore(store, { name: 'x' }, [
        { model: 'M', game: 'G', framing: 'business', actions: counts(2, 6) },
        { model: 'M', game: 'G', framing: 'friend-sharing', actions: counts(4, 6) },
      ]);
      oneLine(await run(['plan', '--data', RATES, '--base', 'business', '--alt', 'business', ...PLAN]), /--base and --alt must differ/);
      oneLine(await run(['plan', store, '--base', 'business', '--alt', 'business', ...PLAN]), /--base and --alt must differ/);
      // A store with both framings plans (the refusals above are not of the store).
      const ok = await run(['plan', store, ...PLAN]);
      expect(ok.code, ok.stderr).toBe(0);
    });

    it('a run with no valid trial', async () => {
      const d = tmp();
      const store = join(d, 's.sqlite');
      writeStore(store, { name: 'x' }, [
        { model: 'M', game: 'G', framing: 'business', actions: [null, null] },
        { model: 'M', game: 'G', framing: 'friend-sharing', actions: [null, null] },
      ]);
      oneLine(await run(['plan', store, ...PLAN]), /has no valid trials/);
    });

    it('a model–game without one of the planned framings, or a --base the run does not have', async () => {
      const d = tmp();
      const store = join(d, 's.sqlite');
      writeStore(store, { name: 'x' }, [
        { model: 'M', game: 'G', framing: 'business', actions: counts(2, 6) },
        { model: 'M', game: 'G', framing: 'friend-sharing', actions: counts(4, 6) },
        { model: 'M', game: 'H', framing: 'business', actions: counts(1, 6) },
      ]);
      oneLine(await run(['plan', store, ...PLAN]), /model "M", game "H" has no valid "friend-sharing" trials/);
      oneLine(await run(['plan', store, '--base', 'nope', ...PLAN]), /has no valid "nope" trials/);
    });
  });
});

describe('plan: the half-widths reached', () => {
  it('name the target each row belongs to, so the two Pooled rows are told apart', async () => {
    const r = await runCli(['plan', '--data', RATES, '--target-halfwidth', '0.05', '--reps', '200']);
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.split('\n');
    const at = lines.findIndex((l) => l.startsWith('Half-widths at the planned n'));
    expect(lines[at + 1]).toMatch(/^target\s+group\s+n\s+half-width$/);
    const pooled = lines.slice(at + 2).filter((l) => /\sPooled\s/.test(l)).map((l) => l.split(/\s{2,}/)[0]);
    expect(pooled).toEqual(['pooled', 'every model and pooled']);
  });
});
