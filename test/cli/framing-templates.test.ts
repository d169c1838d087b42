/**
 * The study of the design language, end to end through the CLI (offline, simulated provider):
 * two story templates (inline and template_file) on the Prisoner's Dilemma and the Stag Hunt in a
 * one-shot and in a repeated design — prompts, run, analyze, the kind in the runs table — the
 * three bad templates refused before anything is created, and `samegame init` → run → analyze.
 */
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT, runCli } from '../helpers/cli.js';

const tmp = mkdtempSync(join(tmpdir(), 'samegame-templates-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const FIX = join(ROOT, 'test/fixtures/templates');

/** A fresh folder with the neighbours design (optionally edited) and its template file. */
function study(name: string, edit: (s: string) => string = (s) => s): string {
  const dir = join(tmp, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'study.yaml'), edit(readFileSync(join(FIX, 'neighbours.yaml'), 'utf8').replace('name: neighbours', 'name: study')));
  copyFileSync(join(FIX, 'strangers.txt'), join(dir, 'strangers.txt'));
  return dir;
}
const kindOf = (store: string) => {
  const db = new Database(store, { readonly: true });
  try { return (db.prepare('SELECT kind FROM runs').pluck().all() as string[]); } finally { db.close(); }
};
async function ok(args: string[], cwd: string) {
  const r = await runCli(args, { cwd });
  expect(r.code, r.stderr).toBe(0);
  return r;
}

describe('a one-shot study with two template framings', () => {
  it('prompts show the numbers and labels; run stores it as one-shot and names the next command; analyze writes Tables 2 and 3 with the two framings', async () => {
    const dir = study('one-shot');
    const p = await ok(['prompts', 'study.yaml', '--game', 'prisoners-dilemma'], dir);
    expect(p.stdout.match(/^=== model /gm)).toHaveLength(2);
    expect(p.stdout).toContain('| framing strangers (template strangers.txt) ===');
    expect(p.stdout).toContain('labels: Help = C, Keep = D | synthetic design');
    // Prisoner's Dilemma (Appendix A): CC 5/5, CD 2/10, DC 10/2, DD 3/3.
    expect(p.stdout).toContain('If you both Help, you get\n5 and the stranger gets 5. If you Help and the stranger chooses Keep, you get\n2 and the stranger gets 10.');
    expect(p.stdout).toContain('- If you choose Help and the other player chooses Keep, you receive 2 points and the other player receives 10 points.');
    expect(p.stdout).not.toMatch(/\{(C|D|payoffs|you\.\w+|other\.\w+)\}/);
    const r = await ok(['run', 'study.yaml', '-q'], dir);
    expect(r.stderr.trimEnd().split('\n').at(-1)).toBe(`next: samegame analyze ${join('runs', 'study.sqlite')}`);
    expect(kindOf(join(dir, 'runs', 'study.sqlite'))).toEqual(['one-shot']);
    await ok(['analyze', join('runs', 'study.sqlite'), '--reps', '200', '--out', 'out', '-q'], dir);
    const reports = join(dir, 'out', 'reports');
    expect(readdirSync(reports)).toEqual(expect.arrayContaining(['table2.csv', 'table3.csv']));
    const m = JSON.parse(readFileSync(join(reports, 'metrics.json'), 'utf8')) as { settings: { base: string; alt: string } };
    expect([m.settings.base, m.settings.alt]).toEqual(['neighbours', 'strangers']);
    expect(readFileSync(join(reports, 'table2.csv'), 'utf8').trimEnd().split('\n').slice(1).map((l) => l.split(',').slice(0, 2).join(','))).toEqual(['Sim,prisoners-dilemma', 'Sim,stag-hunt']);
  }, 60_000);

  const bad: [string, RegExp][] = [
    ['{other.DD}', /study\.yaml:\d+: field "framings\[1\]\.template_file": strangers\.txt: framing strangers: the template never states \{other\.DD\}/],
    ['{you.XY}', /study\.yaml:\d+: field "framings\[1\]\.template_file": strangers\.txt: template line 6: unknown placeholder \{you\.XY\}/],
    ['{payoff}', /strangers\.txt: template line 6: unknown placeholder \{payoff\} \(known: [^)]*\{payoffs\}[^)]*\); did you mean \{payoffs\}\?$/m],
    ['{other.DD', /study\.yaml:\d+: field "framings\[1\]\.template_file": strangers\.txt: template line 6: unclosed brace at "\{other\.DD/],
  ];
  it.each(bad)('a template file with %s in place of {other.DD}: exit 2, one line, nothing created (run, run --dry-run, prompts)', async (put, message) => {
    const dir = study(`bad-${put.replace(/\W/g, '')}`);
    const file = join(dir, 'strangers.txt');
    writeFileSync(file, readFileSync(file, 'utf8').replace('{other.DD}', put === '{other.DD}' ? 'nothing' : put));
    for (const args of [['run', 'study.yaml'], ['run', 'study.yaml', '--dry-run'], ['prompts', 'study.yaml', '--out', 'review']]) {
      const r = await runCli(args, { cwd: dir });
      expect(r.code).toBe(2);
      expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
      expect(r.stderr).toMatch(message);
      expect(r.stdout).toBe('');
    }
    expect(readdirSync(dir).sort()).toEqual(['strangers.txt', 'study.yaml']);
  });

  it('a payoff written as a number in a template is a warning on run --dry-run and prompts, not a refusal, naming the design file and line', async () => {
    const dir = study('hard-coded', (s) => s.replace('Do you {C} or {D}?', 'Most gardeners get 10 points. Do you {C} or {D}?'));
    const file = join(dir, 'strangers.txt');
    writeFileSync(file, readFileSync(file, 'utf8').replace(/\n$/, '\nA stranger once got 3 points.\n'));
    const design = readFileSync(join(dir, 'study.yaml'), 'utf8').split('\n');
    // Where the numbers stand, found in the files themselves: the inline block's line, the template_file field's line and the file's line.
    const inline = design.findIndex((l) => l.includes('Most gardeners get 10')) + 1;
    const field = design.findIndex((l) => l.includes('template_file: strangers.txt')) + 1;
    const inFile = readFileSync(file, 'utf8').split('\n').findIndex((l) => l.includes('got 3 points')) + 1;
    expect([inline, field]).toEqual([18, 21]);
    // An adaptive dry run (--until) names the place as well.
    const adaptive = ['run', 'study.yaml', '--dry-run', '--until', 'target=rate,half_width=0.2'];
    for (const args of [['run', 'study.yaml', '--dry-run'], ['prompts', 'study.yaml'], adaptive]) {
      const r = await runCli(args, { cwd: dir });
      expect(r.code).toBe(0);
      expect(r.stderr).toContain(`warning: study.yaml:${inline}: framing neighbours: template line 5 writes 10, a payoff of prisoners-dilemma, as text; `
        + 'a hard-coded number does not follow the game');
      expect(r.stderr).toContain(`warning: study.yaml:${field}: strangers.txt: framing strangers: template line ${inFile} writes 3, a payoff of `);
    }
  });

  it('an inline template with an unknown placeholder names the design line where it stands', async () => {
    const dir = study('bad-inline', (s) => s.replace('Do you {C} or {D}?', 'Do you {C} or {D}? {you.XY}'));
    const r = await runCli(['run', 'study.yaml'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(readFileSync(join(dir, 'study.yaml'), 'utf8').split('\n')[17]).toContain('{you.XY}'); // line 18: the block's 5th line
    expect(r.stderr).toMatch(/^samegame: study\.yaml:18: field "framings\[0\]\.template": template line 5: unknown placeholder \{you\.XY\}/);
    expect(existsSync(join(dir, 'runs'))).toBe(false);
  });
});

describe('the same framings in a repeated design (3 rounds, self-play)', () => {
  it('runs offline, prompts --round 3 shows the story, the payoffs and two history lines, analyze works, the kind is repeated', async () => {
    const dir = study('repeated', (s) => s.replace('trials: 20', 'trials: 3\nplay: { rounds: 3, opponents: [self] }'));
    const p = await ok(['prompts', 'study.yaml', '--round', '3'], dir);
    const prompts = p.stdout.split(/^=== model /m).slice(1);
    expect(prompts).toHaveLength(4);
    for (const t of prompts) {
      expect(t).toContain('round 3 of 3, example history CC CD');
      expect(t).toMatch(/You and your neighbour each tend|You and a stranger you will never meet again/);
      expect(t.match(/^In round \d, you chose Option (Help|Keep) and the other player chose Option (Help|Keep)\./gm)).toHaveLength(2);
      expect(t).not.toMatch(/one-shot/);
      expect(t.match(/Answer with exactly one word/g)).toHaveLength(1);
    }
    expect(prompts[0]).toContain('you receive 5 points and the other player receives 5 points'); // PD, CC
    await ok(['run', 'study.yaml', '-q'], dir);
    const store = join('runs', 'study.sqlite');
    expect(kindOf(join(dir, store))).toEqual(['repeated']);
    const db = new Database(join(dir, store), { readonly: true });
    const stored = db.prepare('SELECT framing, prompt FROM trial_records WHERE round = 3').all() as { framing: string; prompt: string }[];
    db.close();
    expect(stored).toHaveLength(2 * 2 * 3 * 2); // games × framings × matches × seats
    for (const t of stored) {
      expect(t.prompt).toContain(t.framing === 'neighbours' ? 'You and your neighbour each tend' : 'You and a stranger you will never meet again');
      expect(t.prompt.match(/^In round \d, you chose Option/gm)).toHaveLength(2);
      expect(t.prompt).not.toMatch(/one-shot/);
      expect(t.prompt.match(/Answer with exactly one word/g)).toHaveLength(1);
    }
    await ok(['analyze', store, '--reps', '200', '--out', 'out', '-q'], dir);
    expect(readdirSync(join(dir, 'out', 'reports'))).toEqual(expect.arrayContaining(['cells.csv', 'rounds.csv']));
    const refused = await runCli(['prompts', join(FIX, 'neighbours.yaml'), '--round', '2'], { cwd: dir });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/--round applies to a repeated design/);
  }, 60_000);
});

describe('samegame init', () => {
  it.each(['one-shot', 'repeated', 'enrichment'])('init study --kind %s, run, analyze: offline in an empty folder', async (kind) => {
    const dir = join(tmp, `init-${kind}`);
    mkdirSync(dir);
    await ok(['init', 'study', '--kind', kind], dir);
    const text = readFileSync(join(dir, 'study.yaml'), 'utf8');
    for (const cmd of ['samegame prompts study.yaml', 'samegame run study.yaml --dry-run', 'samegame analyze runs/study.sqlite']) expect(text).toContain(cmd);
    // A repeated design's stranger is met again in every round: its story must not say otherwise.
    if (kind === 'repeated') expect(text).not.toMatch(/never meet again/);
    if (kind === 'one-shot') expect(text).toMatch(/a stranger you will never meet again/);
    if (kind === 'repeated') {
      // The dry run's call count is the one the design's comment states.
      const dry = await ok(['run', 'study.yaml', '--dry-run'], dir);
      expect(text).toMatch(/= 240 calls/);
      expect(dry.stdout + dry.stderr).toMatch(/: 240 calls to make/);
    }
    const r = await ok(['run', 'study.yaml', '-q'], dir);
    expect(r.stderr).toContain('next: samegame analyze runs/study.sqlite');
    expect(kindOf(join(dir, 'runs', 'study.sqlite'))).toEqual([kind]);
    const analysis = await ok(['analyze', 'runs/study.sqlite', '--reps', '200', '-q'], dir);
    if (kind === 'repeated') {
      // The starter's first analysis flags no interval "few matches" (3–9 matches per cell are flagged).
      expect(text).toMatch(/^trials: 10 /m);
      expect(analysis.stderr + analysis.stdout).not.toMatch(/few matches/);
      expect(readFileSync(join(dir, 'runs', 'study', 'reports', 'cells.csv'), 'utf8')).not.toMatch(/few matches/);
    }
    const again = await runCli(['init', 'study'], { cwd: dir });
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/study\.yaml exists already/);
  }, 60_000);
});
