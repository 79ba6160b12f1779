// Discovery by one client: a long tools/list followed to its end, each listing checked for its count.
import type { BenchClient } from "../clients/bench-client.js";

/** Milliseconds per complete listing, each checked against `expectedTools`. */
export async function listToolsMs(client: BenchClient, expectedTools: number, warmups: number, samples: number): Promise<number[]> {
  const listOnce = async (): Promise<number> => {
    const started = performance.now();
    const count = await client.listTools();
    if (count !== expectedTools) throw new Error(`listed ${count} tools, expected ${expectedTools}`);
    return performance.now() - started;
  };
  for (let index = 0; index < warmups; index += 1) await listOnce();
  const millis: number[] = [];
  for (let index = 0; index < samples; index += 1) millis.push(await listOnce());
  return millis;
}
