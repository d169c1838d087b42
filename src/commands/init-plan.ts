/** The preregistration plan `samegame init NAME` writes beside a one-shot design (NAME.plan.yaml). */

/** The starter plan of init's one-shot design: its framing pair, a shift predicate per game and the framing test. */
export function initPlan(name: string): string {
  return `# ${name}.plan.yaml: a preregistration plan for ${name}.yaml, written by samegame init.
#
#   samegame preregister ${name}.plan.yaml    # seal it into runs/${name}.sqlite before the first trial
#   samegame run ${name}.yaml                 # run refuses a design that differs from the sealed one
#   samegame analyze runs/${name}.sqlite      # reports/verdicts.csv: each hypothesis adjudicated
#
# Schema: samegame's data/plans/plan.schema.json; what the seal proves: docs/methods.md §25.
name: ${name}
design: ${name}.yaml
analysis: { base: strangers, alt: neighbours, seed: 1, reps: 2000 }   # the flags analyze takes
alpha: 0.05
correction: holm            # family-wise over the hypotheses: holm, bonferroni or none
max_lost_rate: 0.05         # lost or invalid trials beyond this fraction are a deviation
hypotheses:
  - id: pd-shift
    statement: neighbours cooperate more than strangers in the Prisoner's Dilemma
    estimand: shift         # p_alt − p_base, decided by a one-sided z-test against value
    model: Sim
    game: prisoners-dilemma
    compare: '>'
    value: 0.10
  - id: pooled-shift
    estimand: shift         # the mean over every model–game pair
    model: pooled
    compare: '>'
    value: 0
  - id: framing-matters
    estimand: framing-test  # "framing changes behaviour" (G-test), for every model
    model: every
`;
}
