import { describe, expect, it } from "vitest";
import { createShutdown, type Closer } from "./shutdown.js";

describe("createShutdown", () => {
  it("runs every closer, including ones registered later, before it exits once", async () => {
    const log: string[] = [];
    const closers: Closer[] = [() => void log.push("first")];
    const shutdown = createShutdown({ closers, exit: (code) => log.push(`exit ${code}`), warn: (text) => log.push(text) });
    closers.push(async () => {
      log.push("second");
    });
    await Promise.all([shutdown(0), shutdown(1)]);
    await shutdown(2);
    expect(log).toEqual(["first", "second", "exit 0"]);
  });

  it("also runs a closer registered by an earlier closer while shutdown is under way", async () => {
    const log: string[] = [];
    const closers: Closer[] = [];
    closers.push(async () => {
      log.push("mode settled");
      closers.push(() => void log.push("mounted servers closed"));
    });
    await createShutdown({ closers, exit: (code) => log.push(`exit ${code}`), warn: (text) => log.push(text) })(143);
    expect(log).toEqual(["mode settled", "mounted servers closed", "exit 143"]);
  });

  it("still exits when a closer fails or never settles, saying so", async () => {
    const log: string[] = [];
    const closers: Closer[] = [
      () => {
        throw new Error("socket gone");
      },
      () => new Promise<void>(() => undefined),
    ];
    await createShutdown({ closers, exit: (code) => log.push(`exit ${code}`), warn: (text) => log.push(text), closeTimeoutMs: 10 })(143);
    expect(log).toEqual([
      "closing a connection failed: socket gone",
      "a connection did not close within 10 ms; leaving it to the exit handler",
      "exit 143",
    ]);
  });
});
