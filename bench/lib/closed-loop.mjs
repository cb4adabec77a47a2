// A closed-loop load generator: `concurrency` loops, each sending its next request when
// the answer to the last one has been read, for `warmupMs` then `measureMs` (and at most
// `maxRequests`). Latencies are kept for the measured window only.
import { percentile } from './measure.mjs';

/**
 * `send(n)` makes request number n and resolves with true when its answer is the expected
 * one. Returns requests/s of the measured window, its p99 latency, the requests sent and
 * how many failed.
 */
export async function closedLoop({ concurrency, warmupMs, measureMs, maxRequests = Infinity, send }) {
  const latencies = [];
  let sent = 0;
  let errors = 0;
  const measureFrom = performance.now() + warmupMs;
  const end = measureFrom + measureMs;
  const loop = async () => {
    while (performance.now() < end && sent < maxRequests) {
      const n = ++sent;
      const started = performance.now();
      const ok = await send(n).catch(() => false);
      if (!ok) errors++;
      if (started >= measureFrom) latencies.push(performance.now() - started);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, loop));
  return { perSecond: latencies.length / (measureMs / 1000), p99: percentile(latencies, 99), sent, errors };
}
