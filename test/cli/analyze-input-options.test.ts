/**
 * `analyze` refuses an option the kind of its input does not take (ANALYZE_INPUTS declares what
 * each takes): published logs refuse the store's options, a store refuses the logs'. One line
 * naming the option, exit 2, nothing written; an option left at its default is not refused.
 */
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, ROOT } from '../helpers/cli.js';
import { counts, writeStore } from '../helpers/store.js';
import { commandsMsg } from '../../src/commands/messages.js';

const dir = mkdtempSync(join(tmpdir(), 'samegame-cli-analyze-inputs-'));
const LOG = join(ROOT, 'data/akata-2023/experiment_pd.csv');
const RATES = join(ROOT, 'data/lore-heydari-2024/rates.csv');
const STORE = join(dir, 'gpt.sqlite');
writeStore(STORE, { name: 'gpt', models: [{ id: 'GPT-4', provider: 'openai-chat' }], games: ['prisoners-dilemma'], framings: ['business', 'friend-sharing'] }, [
  { model: 'GPT-4', game: 'prisoners-dilemma', framing: 'business', actions: counts(2, 20) },
  { model: 'GPT-4', game: 'prisoners-dilemma', framing: 'friend-sharing', actions: counts(18, 20) },
]);
const STORE_NAME = 'a trial store';
const LOG_NAME = 'published logs (--trials FILE --format NAME)';

/** The store's options, each as given on the command line. */
const STORE_ONLY: readonly [string, ...string[]][] = [
  ['--expect', RATES], ['--compare', RATES], ['--map-model', 'a=b'], ['--run', '1'],
  ['--max-surface-sensitivity', '0.1'], ['--min-world-responsiveness', '0.1'], ['--pooling', 'random'], ['--verify-store'],
  ['--verdict-alpha', '0.1'], ['--published-reps', '2000'], ['--published-method', 'bca'],
];
/** The logs' options. */
const LOG_ONLY: readonly [string, ...string[]][] = [['--models', 'a'], ['--short-matches', 'keep']];

let n = 0;
async function refused(input: string[], option: readonly string[], takers: string, name: string): Promise<void> {
  const out = join(dir, `out-${n++}`);
  const r = await runCli(['analyze', ...input, '--out', out, '--reps', '50', ...option]);
  expect(r.code, r.stderr).toBe(2);
  expect(r.stderr.trim().split('\n')).toEqual([`samegame: ${commandsMsg.optionNotForInput(option[0], takers, name)}`]);
  expect(r.stdout).toBe('');
  expect(existsSync(out)).toBe(false);
}

describe('analyze --trials … --format … refuses the options of a trial store', () => {
  it.each(STORE_ONLY)('%s', async (...option) => {
    await refused(['--trials', LOG, '--format', 'akata'], option, STORE_NAME, LOG_NAME);
  });
});

describe('analyze STORE refuses the options of published logs', () => {
  it.each(LOG_ONLY)('%s', async (...option) => {
    await refused([STORE], option, LOG_NAME, STORE_NAME);
  });
});
