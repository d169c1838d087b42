/** A binary cell of a model × game × framing table: x successes of n (for hand-built test tables). */
export const cell = (model: string, game: string, framing: string, x: number, n: number) =>
  ({ key: { model, game, framing }, obs: { kind: 'binary' as const, n, x } });
