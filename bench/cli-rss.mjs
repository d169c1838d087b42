// Run the built CLI in this process and, at exit, write its peak RSS (MB) to $BENCH_RSS_FILE.
// Used by the benchmarks to time `samegame …` as a cold process and to read its memory.
import { writeFileSync } from 'node:fs';
process.on('exit', () => {
  if (process.env.BENCH_RSS_FILE) writeFileSync(process.env.BENCH_RSS_FILE, String(process.resourceUsage().maxRSS / 1024));
});
const { main } = await import('../dist/cli/main.js');
process.exitCode = await main(process.argv);
