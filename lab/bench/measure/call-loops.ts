// The three ways the bench drives tools/call: one at a time (latency), 64 in flight (throughput), and one
// large result at a time. Each checks every answer's length, so a short answer fails the case.
import type { BenchClient } from "../clients/bench-client.js";

export const TINY_BYTES = 16;
export const IN_FLIGHT = 64;

async function expectLength(client: BenchClient, bytes: number): Promise<void> {
  const length = await client.call(bytes);
  if (length !== bytes) throw new Error(`asked for ${bytes} characters, got ${length}`);
}

/** Microseconds per sequential tiny call, after `warmups` unmeasured calls. */
export async function sequentialLatencyUs(client: BenchClient, warmups: number, samples: number): Promise<number[]> {
  for (let index = 0; index < warmups; index += 1) await expectLength(client, TINY_BYTES);
  const micros: number[] = [];
  for (let index = 0; index < samples; index += 1) {
    const started = performance.now();
    await expectLength(client, TINY_BYTES);
    micros.push((performance.now() - started) * 1000);
  }
  return micros;
}

/** `calls` tiny calls with `IN_FLIGHT` always outstanding; resolves with the elapsed milliseconds. */
async function window(client: BenchClient, calls: number): Promise<number> {
  let issued = 0;
  const started = performance.now();
  const worker = async (): Promise<void> => {
    while (issued < calls) {
      issued += 1;
      await expectLength(client, TINY_BYTES);
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
  return performance.now() - started;
}

/** Calls per second of each measured window, after `warmupWindows` unmeasured ones. */
export async function throughputPerSecond(client: BenchClient, callsPerWindow: number, warmupWindows: number, windows: number): Promise<number[]> {
  for (let index = 0; index < warmupWindows; index += 1) await window(client, callsPerWindow);
  const rates: number[] = [];
  for (let index = 0; index < windows; index += 1) rates.push(callsPerWindow / ((await window(client, callsPerWindow)) / 1000));
  return rates;
}

/** Milliseconds per call answering `bytes` characters; tiny calls and `warmups` large ones warm up first. */
export async function largeResultMs(client: BenchClient, bytes: number, tinyWarmups: number, warmups: number, samples: number): Promise<number[]> {
  for (let index = 0; index < tinyWarmups; index += 1) await expectLength(client, TINY_BYTES);
  for (let index = 0; index < warmups; index += 1) await expectLength(client, bytes);
  const millis: number[] = [];
  for (let index = 0; index < samples; index += 1) {
    const started = performance.now();
    await expectLength(client, bytes);
    millis.push(performance.now() - started);
  }
  return millis;
}
