// `pnpm lab`: the self-test once as shipped, then with each instinctive version swapped in, one at a time,
// then all of them at once — printing which assertions turn red. Exit 1 if a trap escapes its assertion.
import { runSelfTest, type AssertionResult } from "../src/selftest/index.js";
import type { SelfTestSeams } from "../src/selftest/index.js";
import { emptyPort } from "../src/selftest/index.js";
import { allTraps, TRAPS } from "./traps.js";

const out = (line: string): void => void process.stdout.write(`${line}\n`);

async function run(seams: SelfTestSeams): Promise<AssertionResult[]> {
  // A free port for tickets each time, so the lab never collides with a tickets server already running.
  return runSelfTest({ ticketsPort: await emptyPort(), clientVersion: "lab", baseEnv: process.env, seams });
}

const red = (results: readonly AssertionResult[]): string[] => results.filter((result) => !result.passed).map((result) => result.name);

async function main(): Promise<number> {
  const shipped = await run({});
  out(`as shipped: ${shipped.filter((result) => result.passed).length} of ${shipped.length} pass`);
  let escaped = red(shipped).length === 0 ? 0 : 1;
  for (const trap of TRAPS) {
    const failed = red(await run(trap.seams));
    const caught = failed.includes(trap.caughtBy);
    if (!caught) escaped += 1;
    out(`${caught ? "caught " : "ESCAPED"} ${trap.name.padEnd(16)} (${trap.instinct}): red ${failed.join(", ") || "nothing"}`);
  }
  const all = await run(allTraps());
  const passing = all.filter((result) => result.passed).length;
  out(`all ${TRAPS.length} at once: ${passing} of ${all.length} still pass (red: ${red(all).join(", ")})`);
  return escaped === 0 ? 0 : 1;
}

process.exitCode = await main();
