/**
 * Many waiters on one AbortSignal without many listeners on it. A run shares one abort signal
 * (and one stop-or-abort signal) among every call in flight and every rate-limit or backoff
 * wait; a listener per waiter put 11+ listeners on the signal at --concurrency 11 and Node warned
 * of a leak (MaxListenersExceededWarning). Here each signal gets ONE listener, which fans out to
 * the callbacks registered at that moment; a waiter removes its callback when it settles.
 */
const fans = new WeakMap<AbortSignal, Set<() => void>>();

/**
 * Call `fn` once when `signal` aborts (at once when it already has). Returns the function that
 * unregisters it; call it when the waiter settles, so nothing accumulates over a long run.
 */
export function onAbort(signal: AbortSignal, fn: () => void): () => void {
  if (signal.aborted) { fn(); return () => {}; }
  let set = fans.get(signal);
  if (set === undefined) {
    const callbacks = new Set<() => void>();
    set = callbacks;
    fans.set(signal, callbacks);
    signal.addEventListener('abort', () => {
      fans.delete(signal);
      for (const f of [...callbacks]) f();
      callbacks.clear();
    }, { once: true });
  }
  const mine = () => fn();
  set.add(mine);
  const s = set;
  return () => { s.delete(mine); };
}
