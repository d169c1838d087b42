

export const analyzeMsg = {
  framingPair: (base: string, alt: string) => `planned framing pair: ${base} (base) vs ${alt} (alternative); choose another with --base/--alt`,
  synthetic: () => 'synthetic data: at least one model of this run answered through the simulated provider',
};
