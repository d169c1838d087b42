

export const analyzeMsg = {
  synthetic: () => 'synthetic data: at least one model of this run answered through the simulated provider',
};
