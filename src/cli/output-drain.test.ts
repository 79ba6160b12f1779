// The runtime in a real process writing into a real pipe whose reader does not read until the writer is
// done: Node holds what the pipe cannot take, and the process must not exit before the reader has it all.
import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import { fileURLToPath, pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";

const RUNTIME = pathToFileURL(fileURLToPath(new URL("./runtime.ts", import.meta.url))).href;
const TSX_LOADER = pathToFileURL(createRequire(import.meta.url).resolve("tsx")).href;
const BYTES = 5 * 1024 * 1024;

/** Writes BYTES to stdout through the runtime, says so on stderr, then ends its work with status 0 (or by a signal). */
function writer(end: "done" | "SIGTERM") {
  const script = `
    import { createRuntime } from ${JSON.stringify(RUNTIME)};
    const runtime = createRuntime(process, "0.0.0");
    runtime.writeOut("x".repeat(${BYTES}));
    runtime.writeErr("written\\n");
    runtime.exitWith(${end === "done" ? "Promise.resolve(0)" : "new Promise((resolve) => runtime.interrupt.addEventListener('abort', () => resolve(0)))"});
    ${end === "SIGTERM" ? 'process.kill(process.pid, "SIGTERM");' : ""}
  `;
  return spawn(process.execPath, ["--import", TSX_LOADER, "--input-type=module", "-e", script], { stdio: ["ignore", "pipe", "pipe"] });
}

/** Reads nothing of stdout until the child said it has written everything, then all of it, and the exit status. */
async function readAfterWritten(child: ReturnType<typeof writer>): Promise<{ bytes: number; code: number | null }> {
  child.stdout.pause();
  await new Promise<void>((resolve) => child.stderr.on("data", (chunk: Buffer) => chunk.toString().includes("written") && resolve()));
  let bytes = 0;
  child.stdout.on("data", (chunk: Buffer) => (bytes += chunk.length));
  child.stdout.resume();
  const code = await new Promise<number | null>((resolve) => child.on("close", (status) => resolve(status)));
  return { bytes, code };
}

describe("createRuntime's exit", () => {
  it("waits until a slow reader has every byte written into the pipe", async () => {
    expect(await readAfterWritten(writer("done"))).toEqual({ bytes: BYTES, code: 0 });
  });

  it("does so on SIGTERM too, exiting as a shell reports the signal", async () => {
    expect(await readAfterWritten(writer("SIGTERM"))).toEqual({ bytes: BYTES, code: 143 });
  });
});
