/**
 * The built-in log formats, by the name `--format` takes. Each is a description like any user's
 * (validated by the same schema and rules, test/sources/logs/builtin.test.ts);
 * docs/guides/reanalyse-a-published-log.md writes one out as YAML.
 */
import type { LogFormat } from './schema.js';

/**
 * Akata et al., "Playing repeated games with Large Language Models" (arXiv 2305.16867), the round
 * logs of github.com/eliaka/repeatedgames (data/akata-2023/README.md): one row per round, a match
 * a run of one pair's rows whose round counts 1…10, actions decoded from the points of the
 * Prisoner's Dilemma they played (J/J 8/8, J/F 0/10, F/J 10/0, F/F 5/5), whatever letters a file uses;
 * each round's totals are checked against the points.
 */
const akata: LogFormat = {
  name: 'akata',
  description: 'Akata et al. (2023) round logs: round,player1,player2,answer1,answer2,points1,points2,total1,total2',
  kind: 'Akata et al. round log',
  looks_like: 'an Akata et al. round log',
  delimiter: ',',
  shape: 'round',
  columns: ['round', 'player1', 'player2', 'answer1', 'answer2', 'points1', 'points2', 'total1', 'total2'],
  optional_columns: ['option1', 'option2', 'outcomes'],
  match: 'consecutive',
  round: { column: 'round' },
  game: { constant: 'prisoners-dilemma' },
  framing: { file_stem: true },
  seats: [
    { model: { column: 'player1' }, opponent: { column: 'player2' }, action: 'answer1', payoff: 'points1', total: 'total1' },
    { model: { column: 'player2' }, opponent: { column: 'player1' }, action: 'answer2', payoff: 'points2', total: 'total2' },
  ],
  actions: { payoffs: { C: { C: [8, 8], D: [0, 10] }, D: { C: [10, 0], D: [5, 5] } } },
  // The paper's names of the five LLMs and the three fixed strategies (data/akata-2023/README.md).
  names: {
    act_gpt4: 'GPT-4', act_gpt35: 'GPT-3.5', act_gpt3: 'GPT-3', act_claude: 'Claude 2', act_llama2: 'Llama 2',
    act_j: 'Always J', act_f: 'Always F', act_defect_once: 'Defect once',
  },
  scripted: ['act_j', 'act_f', 'act_defect_once'],
};

const FAIRGAME_COLUMNS = ('game_id;language;n_rounds_is_known;max_rounds;played_rounds;agents_communicate;agent1_name;agent1_llm;'
  + 'agent1_personality;agent1_knows_opponent_with_prob;agent1_strategies;agent1_scores;agent1_messages;agent2_name;agent2_llm;'
  + 'agent2_personality;agent2_knows_opponent_with_prob;agent2_strategies;agent2_scores;agent2_messages;game;known;payoff_type').split(';');

/**
 * FAIRGAME (arXiv 2504.14325), resources/results/all_results.csv: one row per match, both agents'
 * labels as list columns. `game_id` repeats across configurations, so the row is the match; its
 * lists must hold `played_rounds` entries, at most `max_rounds` (a game may stop early). The
 * Prisoner's Dilemma payoffs are penalties with OptionA dominant, so OptionB is cooperation there;
 * in snow-drift, stag-hunt and harmony-game OptionA is. Battle of the Sexes has no cooperative action.
 */
const fairgame: LogFormat = {
  name: 'fairgame',
  description: 'FAIRGAME all_results.csv: ";"-separated, one row per match, agentN_strategies a list of labels',
  kind: 'FAIRGAME results',
  looks_like: 'a FAIRGAME results file',
  delimiter: ';',
  shape: 'match',
  columns: FAIRGAME_COLUMNS,
  match: 'row',
  played_rounds: 'played_rounds',
  max_rounds: 'max_rounds',
  game: { template: '{game}{payoff_type}', values: { payoff_type: { conventional: '', harsh: ' (harsh)', mild: ' (mild)' } } },
  framing: { column: 'language' },
  factors: { n_rounds_is_known: { column: 'n_rounds_is_known' } },
  seats: [
    { model: { column: 'agent1_llm' }, opponent: { column: 'agent2_llm' }, action: 'agent1_strategies',
      factors: { personality: { template: '{agent1_personality}-{agent2_personality}' } } },
    { model: { column: 'agent2_llm' }, opponent: { column: 'agent1_llm' }, action: 'agent2_strategies',
      factors: { personality: { template: '{agent2_personality}-{agent1_personality}' } } },
  ],
  actions: {
    by: { column: 'game' },
    labels: {
      'prisoner-dilemma': { OptionA: 'D', OptionB: 'C' },
      'snow-drift': { OptionA: 'C', OptionB: 'D' },
      'stag-hunt': { OptionA: 'C', OptionB: 'D' },
      'harmony-game': { OptionA: 'C', OptionB: 'D' },
    },
    skip: { 'battle-sexes': 'Battle of the Sexes has no cooperative action' },
  },
};

/** The built-in formats, by name. */
export const BUILTIN_LOG_FORMATS = { akata, fairgame } as const satisfies Readonly<Record<string, LogFormat>>;
export type BuiltinLogFormatId = keyof typeof BUILTIN_LOG_FORMATS;
