/**
 * The designs `samegame init NAME` writes, one per kind: two story templates on the Prisoner's
 * Dilemma and the Stag Hunt (one-shot and repeated), or two format templates over the same facts
 * (context-enrichment), answered by the simulated provider so the design runs offline as written.
 */
export const INIT_KINDS = ['one-shot', 'repeated', 'enrichment'] as const;
export type InitKind = (typeof INIT_KINDS)[number];

const commands = (name: string, what: string, repeated = false) => `#
# ${what}
# The models are SIMULATED (offline, seeded, synthetic data): replace them with real models
# (provider openai-chat, openai-responses, anthropic, gemini, with api_key_env) for a real study.
#
#   samegame prompts ${name}.yaml              # read every rendered prompt before paying for it
${repeated
  ? `#   samegame prompts ${name}.yaml --round 3    # round 3 after an example history\n`
  : ''}#   samegame run ${name}.yaml --dry-run        # calls, tokens and cost; nothing is called
#   samegame run ${name}.yaml                  # store every trial in runs/${name}.sqlite
#   samegame analyze runs/${name}.sqlite       # tables, figures and report
#
# Template placeholders (samegame's docs/methods.md §18a): {C} {D} the labels; {payoffs} every
# outcome with both payoffs; {you.XY} {other.XY} single payoffs (X your action, Y the other's);
# {answer} where the one-word answer instruction goes (appended at the end when the template does
# not place it); {{ and }} for literal braces.
#
# Checked before any call (docs/methods.md §18b): a template that omits a payoff or a label is
# refused; so is one where a sentence or list item holding {you.XY} or {other.XY} names another
# outcome's actions or gives the payoff to the wrong player ("If you both {C}, you get {you.DD}").
# A sentence the rule cannot decide, and a number written in the story, is a warning, not checked.
# No check sees an incentive stated in words ("the warden fines anyone who chooses {D}").
# Whether a model reads the story's payoffs is measured: samegame run ${name}.yaml --probes 16 asks
# comprehension probes (docs/methods.md §18c); analyze marks a framing a model misreads beside its R and shift.`;

/** The two story framings; in a repeated design the stranger is met again every round, so the story does not promise otherwise. */
const framings = (repeated: boolean) => `framings:
  - id: neighbours
    labels: [Help, Keep]
    template: |
      You and your neighbour tend garden plots side by side. This season each of you decides,
      at the same time and without telling the other, whether to {C} with the shared watering
      or {D} your water for your own plot. The harvest of each plot, in points:
      {payoffs}
      Do you {C} or {D}?
  - id: strangers
    labels: [Help, Keep]
    template: |
      You and a stranger ${repeated ? 'you had never met before' : 'you will never meet again'} each choose, in separate rooms and at the
      same time, to {C} the other or {D} what you have. If you both {C}, you get {you.CC} points
      and the stranger {other.CC}. If you {C} and the stranger chooses {D}, you get {you.CD} and
      the stranger {other.CD}. If you {D} and the stranger chooses {C}, you get {you.DC} and the
      stranger {other.DC}. If you both {D}, you get {you.DD} and the stranger {other.DD}.
      What do you do?`;

const MODELS = `models:
  - id: Sim
    provider: simulated
    options: { lambda: 4, bias: { neighbours: 0.6, strangers: -0.6 } }`;

/**
 * Matches per cell of the repeated starter: 10, so that each cell's cluster-robust interval rests on
 * G − 1 = 9 degrees of freedom and carries no "few matches" flag in the first analysis (docs/methods.md).
 */
const REPEATED_TRIALS = [
  'trials: 10                     # matches per model × game × framing cell: 10 or more, so that no',
  '                               # interval is flagged "few matches" (3–9 are, docs/methods.md);',
  '                               # 1 model × 2 games × 2 framings × 10 = 40 matches × 3 rounds × 2 seats',
  '                               # = 240 calls, ~54,000 input tokens (run --dry-run prints calls and cost)',
];

function oneShot(name: string, repeated: boolean): string {
  return [
    `# ${name}: ${repeated ? 'a repeated' : 'a one-shot'} study written by samegame init.`,
    commands(name, repeated
      ? ('Neighbours versus strangers, played for 3 rounds against itself: each round prompt is the\n# framing\'s story, then the history of the rounds so ' +
        'far, then the answer instruction.')
      : 'Neighbours versus strangers: does the story change cooperation in the same game?', repeated),
    `name: ${name}`,
    'synthetic: true',
    MODELS,
    'games: [prisoners-dilemma, stag-hunt]',
    framings(repeated),
    ...(repeated ? REPEATED_TRIALS : ['trials: 20                      # trials per model × game × framing cell']),
    'decoding: { temperature: 1, max_tokens: 4, seed: 1 }',
    'scoring: sample',
    ...(repeated ? ['play:', '  rounds: 3', '  opponents: [self]', '  history: akata               # one sentence per past round'] : []),
    '',
  ].join('\n');
}

function enrichment(name: string): string {
  return [
    `# ${name}: a context-enrichment study written by samegame init.`,
    commands(name, ('Two worlds (neighbours, strangers), two conditions and two format templates over the same\n# facts. In a format template each slot is ' +
      'a placeholder ({intro}, {context}, {norm}, {game}),\n# and every slot must appear in every format: formats lay out the same facts.')),
    'kind: context-enrichment',
    `name: ${name}`,
    'synthetic: true',
    `models:
  - id: Sim
    provider: simulated
    options: { lambda: 0, effects: [{ when: { world: neighbours }, logit: 1 }, { when: { world: strangers }, logit: -0.5 }] }`,
    'trials: 20',
    'decoding: { temperature: 1, max_tokens: 4, seed: 1 }',
    'scoring: sample',
    'scenario: garden',
    'actions: [HELP, KEEP]',
    'payoffs: { T: 5, R: 4, P: 2, S: 0 }',
    'template: [intro, context, norm, game]',
    `base:
  intro:
    - text: "Two people each tend a garden plot and share one water supply."
  game:
    - text: "Each chooses to {C} with the shared watering or to {D} their water."`,
    `worlds:
  - id: neighbours
    slots: { context: [{ text: "The other gardener is your neighbour of many years." }] }
  - id: strangers
    slots: { context: [{ text: "The other gardener is a stranger you will never meet again." }] }`,
    'registered_direction: { higher: neighbours, lower: strangers }',
    `conditions:
  - id: plain
    function: the story alone
  - id: norms
    function: a social norm added to the intro
    slots: { norm: [{ text: "Around here, gardeners are expected to share water in a dry season." }] }`,
    `formats:
  - id: story
    template: |
      {intro} {context} {norm}
      {game}
      The points of each outcome:
      {payoffs}
  - id: terse
    template: |
      {intro} {context} {norm} {game}
      Both {C}: you {you.CC}, they {other.CC}. You {C}, they {D}: you {you.CD}, they {other.CD}.
      You {D}, they {C}: you {you.DC}, they {other.DC}. Both {D}: you {you.DD}, they {other.DD}.`,
    '',
  ].join('\n');
}

/** The text of NAME.yaml for a kind. */
export function initDesign(name: string, kind: InitKind): string {
  return kind === 'enrichment' ? enrichment(name) : oneShot(name, kind === 'repeated');
}
