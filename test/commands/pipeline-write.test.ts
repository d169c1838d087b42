/**
 * The end of every command's route (src/commands/pipeline/write.ts): the files written once, as one
 * set, then what the command prints, then the exit code of a failed check; a dry run leaves the
 * writer uncalled; a stale output is removed only after the new files are in place, and a stale
 * path that is not a regular file is refused before anything is written.
 */
import { existsSync, mkdtempSync, readFileSync, readlinkSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { finish } from '../../src/commands/pipeline/write.js';
import { makeReport, check } from '../../src/core/checks.js';
import { UserError } from '../../src/core/errors.js';
import { MemoryLogger } from '../../src/core/logger.js';

const dir = mkdtempSync(join(tmpdir(), 'sg-pipeline-write-'));

describe('finish: write once, print, exit code', () => {
  it('writes every file before it prints, then fails with exit 3 on a failed check (failOnChecks)', () => {
    const out = mkdtempSync(join(dir, 'a-'));
    const files = [{ path: join(out, 'reports', 'a.csv'), content: 'a\n' }, { path: join(out, 'figures', 'b.svg'), content: '<svg/>' }];
    const seen: boolean[] = [];
    const failed = makeReport([check('x', 'a check that fails', 'failed', ['cell'])], []);
    const logger = new MemoryLogger();
    let thrown: unknown;
    try {
      finish({ result: 1, files, checks: failed, print: (l) => { seen.push(...files.map((f) => existsSync(f.path))); l.print?.('table\n'); } },
        { logger, failOnChecks: true });
    } catch (e) { thrown = e; }
    expect(thrown).toBeInstanceOf(UserError);
    expect((thrown as UserError).exitCode).toBe(3);
    expect(seen).toEqual([true, true]);
    expect(logger.printed).toEqual(['table\n']);
    expect(readFileSync(files[0].path, 'utf8')).toBe('a\n');
    // Without failOnChecks (the library's default) the result is returned.
    expect(finish({ result: 2, files, checks: failed }, {})).toBe(2);
  });

  it('a dry run writes nothing and removes nothing, and still prints', () => {
    const out = mkdtempSync(join(dir, 'b-'));
    const stale = join(out, 'old.csv');
    writeFileSync(stale, 'old');
    const logger = new MemoryLogger();
    expect(finish({ result: 'r', files: [{ path: join(out, 'new.csv'), content: 'n' }], stale: [stale], print: (l) => l.info('done') },
      { logger, dryRun: true })).toBe('r');
    expect(existsSync(join(out, 'new.csv'))).toBe(false);
    expect(readFileSync(stale, 'utf8')).toBe('old');
    expect(logger.infos).toEqual(['done']);
  });

  it('removes a stale output once the files are written; a stale path that is a link is refused before any file is written', () => {
    const out = mkdtempSync(join(dir, 'c-'));
    const stale = join(out, 'old.csv');
    writeFileSync(stale, 'old');
    finish({ result: undefined, files: [{ path: join(out, 'new.csv'), content: 'n' }], stale: [stale, join(out, 'never-there.csv')] }, {});
    expect(existsSync(stale)).toBe(false);
    expect(readFileSync(join(out, 'new.csv'), 'utf8')).toBe('n');
    const link = join(out, 'link.csv');
    symlinkSync(join(out, 'new.csv'), link);
    expect(() => finish({ result: undefined, files: [{ path: join(out, 'other.csv'), content: 'o' }], stale: [link] }, {}))
      .toThrow(/link\.csv.*symbolic link/);
    expect(existsSync(join(out, 'other.csv'))).toBe(false);
    expect(readlinkSync(link)).toBe(join(out, 'new.csv'));
  });
});
