#!/usr/bin/env node
// mca's composition root: builds the one Runtime of this process (its outputs, redactor, signals and
// shutdown) from the process itself, reads the command line, and runs it. The only module with side
// effects when it loads; everything a path does not need is imported lazily, so `mca --help` and the mock
// never load the Anthropic SDK or prompts.
import { createRuntime, honourNoColor, parseInvocation, readPackageVersion, runInvocation, USAGE_EXIT_CODE, type Runtime } from "./cli/index.js";

// Before anything loads the question prompts, which read it once.
honourNoColor(process.env);
// The signal, exit and crash handlers are on the process from here: before any child can start.
const runtime = createRuntime(process, readPackageVersion(import.meta.url));
runtime.exitWith(run(runtime, process.argv.slice(2)));

async function run(runtime: Runtime, argv: readonly string[]): Promise<number> {
  const invocation = await parseInvocation(argv, runtime.version, runtime);
  if (invocation.kind === "exit" || (runtime.env.SELFTEST ?? "") === "") return runInvocation(runtime, invocation);
  // `MOCK=1 SELFTEST=1 pnpm start`: it starts the demo servers itself, so it mounts no config of its own.
  // Imported beside this file: the bundle leaves the self-test outside itself, in dist/src/selftest.
  const { runSelfTestCommand } = await import("./selftest/run-selftest.js");
  const ticketsPort = Number(runtime.env.TICKETS_PORT ?? "3115");
  if (!Number.isInteger(ticketsPort) || ticketsPort < 0 || ticketsPort > 65_535) {
    runtime.warn(`mca: TICKETS_PORT must be a port number, not ${JSON.stringify(runtime.env.TICKETS_PORT)}`);
    return USAGE_EXIT_CODE;
  }
  return runSelfTestCommand({ ticketsPort, clientVersion: runtime.version, baseEnv: runtime.env, out: runtime.writeOut, err: runtime.writeErr });
}
