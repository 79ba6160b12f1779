import { EventEmitter } from "node:events";
import { describe, expect, it } from "vitest";
import { createRuntime, createShutdown, growingRedactor, type Closer, type Runtime } from "./runtime.js";

/** A process to build a runtime on: its events are emitted by the test, and what it writes and exits with is logged. */
class FakeProcess extends EventEmitter {
  readonly env = {};
  readonly log: string[] = [];
  readonly stdout = this.stream("out");
  readonly stderr = this.stream("err");
  readonly exited: Promise<number>;
  #exit: (code: number) => void = () => undefined;

  constructor() {
    super();
    this.exited = new Promise((resolve) => {
      this.#exit = resolve;
    });
  }

  exit(code: number): void {
    this.log.push(`exit ${code}`);
    this.#exit(code);
  }

  private stream(name: string): EventEmitter & { write(text: string): boolean } {
    const log = this.log;
    return Object.assign(new EventEmitter(), {
      write(text: string): boolean {
        log.push(`${name}: ${text}`);
        return true;
      },
    });
  }
}

function started(): { readonly proc: FakeProcess; readonly runtime: Runtime; readonly interruptReason: () => unknown } {
  const proc = new FakeProcess();
  const runtime = createRuntime(proc, "1.2.3", 50);
  return { proc, runtime, interruptReason: () => (runtime.interrupt.aborted ? String(runtime.interrupt.reason) : "not aborted") };
}

describe("createRuntime", () => {
  it("exits with the work's status once the work has settled and every closer has run", async () => {
    const { proc, runtime } = started();
    let finish: (code: number) => void = () => undefined;
    runtime.exitWith(new Promise((resolve) => (finish = resolve)));
    runtime.addCloser(() => void proc.log.push("servers closed"));
    finish(3);
    expect(await proc.exited).toBe(3);
    expect(proc.log).toEqual(["servers closed", "exit 3"]);
  });

  it("on SIGTERM and SIGHUP aborts the work with the signal's name, lets it settle, closes, and exits as a shell reports the signal", async () => {
    const signals: readonly (readonly [string, number])[] = [["SIGTERM", 143], ["SIGHUP", 129]];
    for (const [signal, code] of signals) {
      const { proc, runtime, interruptReason } = started();
      const settle = (resolve: (code: number) => void): void => {
        proc.log.push(`work stopped: ${interruptReason()}`);
        resolve(0);
      };
      runtime.exitWith(new Promise((resolve) => runtime.interrupt.addEventListener("abort", () => setTimeout(() => settle(resolve), 5))));
      runtime.addCloser(() => void proc.log.push("servers closed"));
      proc.emit(signal);
      expect(await proc.exited).toBe(code);
      expect(proc.log).toEqual([`work stopped: mca received ${signal}`, "servers closed", `exit ${code}`]);
    }
  });

  it("takes the first Ctrl-C as the user's interrupt of the work, and a second as the end of the run", async () => {
    const { proc, runtime } = started();
    runtime.exitWith(new Promise(() => undefined));
    proc.emit("SIGINT");
    expect([runtime.interrupt.aborted, runtime.interrupt.reason instanceof DOMException, proc.log]).toEqual([true, true, []]);
    proc.emit("SIGINT");
    // The work never settles: the shutdown's own limit lets it go.
    expect(await proc.exited).toBe(130);
  });

  it("ends quietly with 141 once a reader closed its output, and writes nothing more", async () => {
    const { proc, runtime, interruptReason } = started();
    runtime.exitWith(new Promise(() => undefined));
    runtime.writeOut("before\n");
    proc.stdout.emit("error", new Error("EPIPE"));
    proc.stderr.emit("error", new Error("EPIPE"));
    runtime.writeOut("after\n");
    runtime.warn("a warning");
    expect(await proc.exited).toBe(141);
    expect([interruptReason(), proc.log]).toEqual(["mca's output was closed", ["out: before\n", "exit 141"]]);
  });

  it("reports the first unexpected error once and exits 1", async () => {
    const { proc, runtime, interruptReason } = started();
    runtime.exitWith(new Promise((resolve) => runtime.interrupt.addEventListener("abort", () => resolve(0))));
    proc.emit("unhandledRejection", "first");
    proc.emit("uncaughtException", new Error("second"));
    expect(await proc.exited).toBe(1);
    expect([interruptReason(), proc.log]).toEqual(["mca hit an unexpected error", ["err: mca: unexpected error: first\n", "exit 1"]]);
  });

  it("runs what it was given at exit when the process exits", () => {
    const { proc, runtime } = started();
    runtime.atExit(() => void proc.log.push("children killed"));
    proc.emit("exit", 0);
    expect(proc.log).toEqual(["children killed"]);
  });

  it("hides each secret it learns in all it writes from then on, warnings included", () => {
    const { proc, runtime } = started();
    runtime.writeOut("token-1234567 ");
    runtime.addSecret("token-1234567");
    runtime.writeOut("token-1234567 ");
    runtime.writeErr("token-1234567 ");
    runtime.warn("token-1234567");
    expect(proc.log).toEqual(["out: token-1234567 ", "out: [redacted] ", "err: [redacted] ", "err: [redacted]\n"]);
  });

  it("shows warnings where it is told, redacted, then on stderr again", () => {
    const { proc, runtime } = started();
    runtime.addSecret("token-1234567");
    runtime.showWarningsIn((text) => void proc.log.push(`chat: ${text}`));
    runtime.warn("a server left: token-1234567");
    runtime.showWarningsIn(null);
    runtime.warn("back");
    expect(proc.log).toEqual(["chat: a server left: [redacted]", "err: back\n"]);
  });
});

describe("growingRedactor", () => {
  it("hides a secret added after it was made, in every text it redacts afterwards", () => {
    const { redact, add } = growingRedactor(["config-secret"]);
    expect(redact("config-secret and access-token-1")).toBe("[redacted] and access-token-1");
    add("access-token-1");
    expect(redact("config-secret and access-token-1")).toBe("[redacted] and [redacted]");
  });
});

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
