/**
 * Benchmark: per-call overhead of the SDK providers. Each provider (anthropic on
 * @anthropic-ai/sdk, gemini on @google/genai, openai-chat on openai) calls its own loopback server
 * (which answers at once, with logprobs where the wire format has them) sequentially, in
 * alternating rounds so machine load falls on all three alike; the figure is the median time
 * per call over the rounds, reported as a ratio to openai-chat. The loopback servers do
 * comparable work (parse the body, write one JSON answer), so the ratio is the SDKs' and readers'
 * overhead, not the wire's.
 */
import { performance } from 'node:perf_hooks';
import { createAnthropicProvider } from '../src/live/providers/anthropic.js';
import { createGeminiProvider } from '../src/live/providers/gemini.js';
import { createOpenAIChatProvider } from '../src/live/providers/openai-chat.js';
import type { Provider, TrialSpec } from '../src/live/types.js';
import { startAnthropicLoopback } from '../test/helpers/loopback-anthropic.js';
import { startGeminiLoopback } from '../test/helpers/loopback-gemini.js';
import { startLoopback } from '../test/helpers/loopback-openai.js';
import { model, spec } from '../test/helpers/trial-specs.js';
import { median, type BenchRow } from './util.js';

const ROUNDS = 9;
const CALLS = 150;

async function perCall(p: Provider, s: (rep: number) => TrialSpec): Promise<number> {
  const signal = new AbortController().signal;
  const t = performance.now();
  for (let i = 0; i < CALLS; i++) await p.complete({ spec: s(i), signal });
  return (performance.now() - t) / CALLS;
}

export async function benchVendors(): Promise<BenchRow[]> {
  const [o, a, g] = await Promise.all([startLoopback({}), startAnthropicLoopback({}), startGeminiLoopback({})]);
  const key = 'bench-key';
  const arms = {
    'openai-chat': { p: createOpenAIChatProvider({ apiKey: key, baseURL: o.url, timeoutMs: 10_000 }), s: (r: number) => spec(model('openai-chat', o.url), r, 'logprobs') },
    anthropic: { p: createAnthropicProvider({ apiKey: key, baseURL: a.url, timeoutMs: 10_000 }), s: (r: number) => spec(model('anthropic', a.url), r, 'sample') },
    gemini: { p: createGeminiProvider({ apiKey: key, baseURL: g.url, timeoutMs: 10_000 }), s: (r: number) => spec(model('gemini', g.url), r, 'logprobs') },
  };
  const times: Record<keyof typeof arms, number[]> = { 'openai-chat': [], anthropic: [], gemini: [] };
  try {
    for (const arm of Object.values(arms)) await perCall(arm.p, arm.s); // warm-up: JIT, connection pools
    for (let r = 0; r < ROUNDS; r++) {
      for (const [name, arm] of Object.entries(arms) as [keyof typeof arms, (typeof arms)[keyof typeof arms]][]) times[name].push(await perCall(arm.p, arm.s));
    }
  } finally {
    await Promise.all([o.close(), a.close(), g.close()]);
  }
  const base = median(times['openai-chat']);
  return (['anthropic', 'gemini'] as const).map((name) => ({
    name: `vendors: ${name} provider, time per call against a loopback server (${CALLS} sequential calls, median of ${ROUNDS} alternating rounds)`,
    value: median(times[name]), unit: 'ms', baseline: base, baselineName: 'openai-chat provider, same rounds', target: '≤ 1.5',
    note: `median of the per-round ratios ${median(times[name].map((x, r) => x / times['openai-chat'][r])).toFixed(2)}; rounds ${times[name].map((x) => x.toFixed(2)).join(', ')} ms; openai-chat ${times['openai-chat'].map((x) => x.toFixed(2)).join(', ')} ms`,
  }));
}
