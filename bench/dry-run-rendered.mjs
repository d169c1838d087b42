// The baseline of bench/dry-run.ts: a repeated design's dry-run plan computed by rendering every
// pending decision's prompt with its whole history (the method `run --dry-run` used before it
// counted prompt lengths), then planRun. Prints the input tokens; writes its peak RSS (MB) to
// $BENCH_RSS_FILE at exit. Usage: node bench/dry-run-rendered.mjs DESIGN.yaml
import { readFileSync, writeFileSync } from 'node:fs';
process.on('exit', () => {
  if (process.env.BENCH_RSS_FILE) writeFileSync(process.env.BENCH_RSS_FILE, String(process.resourceUsage().maxRSS / 1024));
});
const { parseDesign } = await import('../dist/live/design/design.js');
const { prepareSession } = await import('../dist/live/runner/session.js');
const { planRun } = await import('../dist/live/runner/plan.js');
const { decisionSpec, llmSeats, planMatches } = await import('../dist/live/repeated/plan.js');
const file = process.argv[2];
const { design, prices } = prepareSession(parseDesign(readFileSync(file, 'utf8'), file), {});
const specs = [];
for (const m of planMatches(design)) {
  const history = Array.from({ length: design.play.rounds }, () => ({ moves: ['C', 'C'] }));
  for (let t = 1; t <= design.play.rounds; t++) for (const seat of llmSeats(m)) specs.push(decisionSpec(design, m, seat, t, history.slice(0, t - 1)));
}
const p = planRun(specs, () => false, prices);
process.stdout.write(`${p.calls} ${p.inputTokens}\n`);
