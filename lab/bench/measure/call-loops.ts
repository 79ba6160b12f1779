// The three ways the bench drives tools/call: one at a time (latency), 64 in flight (throughput), and one
// large result at a time. Each checks every answer's length, so a short answer fails the case, and each
// reports the CPU time this process spent per measured call: on a busy machine a steadier figure than time.
import type { BenchClient } from "../clients/bench-client.js";

export const TINY_BYTES = 16;
export const IN_FLIGHT = 64;

export interface Measured {
  readonly samples: number[];
  /** User plus system CPU time of this process (GC threads included) per measured call, in µs. */
  readonly cpuUsPerCall: number;
}

/** Counts the process's CPU time from now; `perCall(calls)` divides what was spent since by the calls. */
function cpuMeter(): { perCall(calls: number): number } {
  const started = process.cpuUsage();
  return {
    perCall(calls) {
      const spent = process.cpuUsage(started);
      return (spent.user + spent.system) / calls;
    },
  };
}

async function expectLength(client: BenchClient, bytes: number): Promise<void> {
  const length = await client.call(bytes);
  if (length !== bytes) throw new Error(`asked for ${bytes} characters, got ${length}`);
}

/** Microseconds per sequential tiny call, after `warmups` unmeasured calls. */
export async function sequentialLatencyUs(client: BenchClient, warmups: number, samples: number): Promise<Measured> {
  for (let index = 0; index < warmups; index += 1) await expectLength(client, TINY_BYTES);
  const micros: number[] = [];
  const cpu = cpuMeter();
  for (let index = 0; index < samples; index += 1) {
    const started = performance.now();
    await expectLength(client, TINY_BYTES);
    micros.push((performance.now() - started) * 1000);
  }
  return { samples: micros, cpuUsPerCall: cpu.perCall(samples) };
}

/**
 * Tiny calls with `IN_FLIGHT` always outstanding until `durationMs` has passed (the calls in flight then
 * are still awaited and counted). A window is a span of time, not a count, so that a slow client costs
 * the run no more time than a fast one.
 */
async function window(client: BenchClient, durationMs: number): Promise<{ calls: number; perSecond: number }> {
  let calls = 0;
  const started = performance.now();
  const deadline = started + durationMs;
  const worker = async (): Promise<void> => {
    while (performance.now() < deadline) {
      await expectLength(client, TINY_BYTES);
      calls += 1;
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
  return { calls, perSecond: calls / ((performance.now() - started) / 1000) };
}

/** Calls per second of each measured window, after an unmeasured warm-up window of `warmupMs`. */
export async function throughputPerSecond(client: BenchClient, warmupMs: number, windowMs: number, windows: number): Promise<Measured> {
  await window(client, warmupMs);
  const rates: number[] = [];
  let calls = 0;
  const cpu = cpuMeter();
  for (let index = 0; index < windows; index += 1) {
    const measured = await window(client, windowMs);
    rates.push(measured.perSecond);
    calls += measured.calls;
  }
  return { samples: rates, cpuUsPerCall: cpu.perCall(calls) };
}

/** Milliseconds per call answering `bytes` characters; tiny calls and `warmups` large ones warm up first. */
export async function largeResultMs(client: BenchClient, bytes: number, tinyWarmups: number, warmups: number, samples: number): Promise<Measured> {
  for (let index = 0; index < tinyWarmups; index += 1) await expectLength(client, TINY_BYTES);
  for (let index = 0; index < warmups; index += 1) await expectLength(client, bytes);
  const millis: number[] = [];
  const cpu = cpuMeter();
  for (let index = 0; index < samples; index += 1) {
    const started = performance.now();
    await expectLength(client, bytes);
    millis.push(performance.now() - started);
  }
  return { samples: millis, cpuUsPerCall: cpu.perCall(samples) };
}
