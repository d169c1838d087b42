/**
 * Comprehension probes are asked synchronously on every built-in provider (docs/methods.md §18c):
 * one design with an OpenAI Responses, an OpenAI-compatible Chat, an Anthropic and a Gemini model,
 * each against a loopback server of its wire format that answers a probe with the payoff the
 * prompt's story states for the outcome asked. `run` stores 8 probes per model, every one
 * correct, in probe_trials, and the decisions in their cells.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { run } from '../../src/commands/run.js';
import { scoredProbes, storedProbes } from '../../src/live/probes/store.js';
import { TrialStore } from '../../src/live/store/store.js';
import { askedWords, startLoopback, type Loopback } from '../helpers/loopback-openai.js';
import { startAnthropicLoopback, type AnthropicLoopback } from '../helpers/loopback-anthropic.js';
import { startGeminiLoopback, type GeminiLoopback } from '../helpers/loopback-gemini.js';

/** The points the story states for the outcome a probe asks (the {payoffs} sentences), or the C-word for a decision. */
function answer(prompt: string): { text: string } {
  const q = /if you choose (\w+) and the other player chooses (\w+), how many points (do you|does the other player) get/.exec(prompt);
  if (!q) return { text: (askedWords(prompt) ?? ['Help'])[0] };
  const line = new RegExp(`If you choose ${q[1]} and the other player chooses ${q[2]}, `
    + 'you receive (-?[\\d.]+) points and the other player receives (-?[\\d.]+)').exec(prompt)!;
  return { text: `${q[3] === 'do you' ? line[1] : line[2]} points` };
}

let dir: string;
let openai: Loopback;
let anthropic: AnthropicLoopback;
let gemini: GeminiLoopback;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'sg-probe-providers-'));
  openai = await startLoopback({ answer });
  anthropic = await startAnthropicLoopback({ answer });
  gemini = await startGeminiLoopback({ answer });
  process.env.SG_PROBE_TEST_KEY = 'sk-test';
});
afterAll(async () => {
  delete process.env.SG_PROBE_TEST_KEY;
  await Promise.all([openai.close(), anthropic.close(), gemini.close()]);
  rmSync(dir, { recursive: true, force: true });
});

it('asks and scores the probes on openai-responses, openai-chat, anthropic and gemini', async () => {
  const design = join(dir, 'p.yaml');
  writeFileSync(design, `name: providers
models:
  - { id: resp, provider: openai-responses, model: loop, base_url: "${openai.url}", api_key_env: SG_PROBE_TEST_KEY }
  - { id: chat, provider: openai-chat, model: loop, base_url: "${openai.url}", api_key_env: SG_PROBE_TEST_KEY }
  - { id: claude, provider: anthropic, model: loop, base_url: "${anthropic.url}", api_key_env: SG_PROBE_TEST_KEY }
  - { id: gem, provider: gemini, model: loop, base_url: "${gemini.url}", api_key_env: SG_PROBE_TEST_KEY }
games: [prisoners-dilemma]
framings:
  - { id: plain, labels: [Help, Keep], template: "You and another player each choose.\\n{payoffs}\\n{answer}" }
trials: 2
probes: 8
decoding: { max_tokens: 1, temperature: 0 }
`);
  const store = join(dir, 'p.sqlite');
  await run({ design, store });
  const s = TrialStore.openExisting(store);
  try {
    const id = s.runs()[0].id;
    const probes = storedProbes(s, id);
    expect(probes.map((p) => p.model).sort()).toEqual(['chat', 'claude', 'gem', 'resp'].flatMap((m) => Array(8).fill(m)));
    expect(scoredProbes(probes).every((p) => p.score === 'correct')).toBe(true);
    // A probe's max tokens are raised to 16 (the decision's 1 would cut a number short): as sent to each server.
    const bodies = [...openai.log.map((l) => l.body), ...anthropic.log.map((l) => l.body), ...gemini.log.map((l) => l.body)]
      .filter((b) => b.includes('how many points'));
    expect(bodies).toHaveLength(32);
    for (const b of bodies) expect(b).toMatch(/"(max_output_tokens|max_tokens|max_completion_tokens|maxOutputTokens)":16/);
    expect(s.statusCounts(id).ok).toBe(8);
  } finally {
    s.close();
  }
}, 120_000);
