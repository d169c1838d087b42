import type { GenerateOptions } from '../../helpers/repeated-decisions.js';

/** The run behind decisions.csv and reference.json (numpy: reference_repeated.py decisions.csv 11 4000). */
export const REFERENCE_OPTIONS: GenerateOptions = {
  seed: 7, models: ['model-a', 'model-bb'], framings: ['business', 'friend-sharing'],
  opponents: ['self', 'always-defect', 'tit-for-tat'], matches: 15, rounds: 6, invalidEvery: 37,
};
export const REFERENCE_REPS = 4000;
