import { jsdBernoulli } from '../../stats/jsd.js';

/**
 * Paraphrase invariance (the context-enrichment summary "Selective Robustness" 1.): the mean Jensen–Shannon divergence
 * between the original prompt's action distribution and each paraphrase's. Reported as the
 * divergence (natural log, 0…ln 2); the context-enrichment summary's code sketch uses scipy's `jensenshannon`, which
 * returns the distance √JSD, so that mean is reported beside it under its own name.
 */
export function paraphraseInvariance(pOriginal: number, pParaphrases: ArrayLike<number>): { divergence: number; distance: number } {
  const k = pParaphrases.length;
  if (k === 0) return { divergence: NaN, distance: NaN };
  let d = 0, s = 0;
  for (let i = 0; i < k; i++) {
    const j = jsdBernoulli(pOriginal, pParaphrases[i]);
    d += j;
    s += Math.sqrt(j);
  }
  return { divergence: d / k, distance: s / k };
}

/**
 * Directional sensitivity (the context-enrichment summary "Selective Robustness" 2.): (p_new − p_old)·direction, positive
 * when behaviour moved the registered way (direction +1 or −1).
 */
export function directionalSensitivity(pOld: number, pNew: number, direction: 1 | -1): number {
  return (pNew - pOld) * direction;
}
