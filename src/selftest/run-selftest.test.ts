import { createServer } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { createTempProject, type TempProject } from "../cli/test-support/run-cli.js";
import type { LineFramer } from "../mcp/index.js";
import { ASSERTION_ORDER, runSelfTest, type AssertionName } from "./run-selftest.js";

let project: TempProject | undefined;

afterEach(async () => {
  await project?.remove();
  project = undefined;
});

/** Keeps the half line across chunks, but decodes each chunk on its own: a character cut between two reads is mangled. */
function decodeEachChunk(): LineFramer {
  let pending = "";
  return {
    push(chunk) {
      pending += chunk.toString("utf8");
      const lines = pending.split("\n");
      pending = lines.pop() ?? "";
      return lines.filter((line) => line !== "");
    },
    end: () => (pending === "" ? [] : [pending]),
  };
}

const verdicts = async (names: readonly AssertionName[]): Promise<Array<{ name: string; passed: boolean }>> =>
  (await runSelfTest({ ticketsPort: 0, clientVersion: "0.0.0-test", baseEnv: process.env, names })).map(({ name, passed }) => ({ name, passed }));

describe("the self-test", () => {
  it("passes all 14 assertions against the demo servers on a free port", async () => {
    const results = await runSelfTest({ ticketsPort: 0, clientVersion: "0.0.0-test", baseEnv: process.env });
    expect(results.map(({ name, passed }) => ({ name, passed }))).toEqual(ASSERTION_ORDER.map((name) => ({ name, passed: true })));
  });

  it("turns framing red, and only framing, with a framer that decodes each chunk on its own", async () => {
    const seams = { transport: { createFramer: decodeEachChunk } };
    const results = await runSelfTest({ ticketsPort: 0, clientVersion: "0.0.0-test", baseEnv: process.env, seams, names: ["framing", "long-note"] });
    expect(results.map(({ name, passed }) => ({ name, passed }))).toEqual([
      { name: "framing", passed: false },
      { name: "long-note", passed: true },
    ]);
    expect(results[0]?.detail).toContain("message 1 came back changed");
    expect(results[0]?.detail).toContain("\uFFFD");
  });

  it("gives every assertion the same verdict in reverse order and when it runs alone", async () => {
    const reversed = [...ASSERTION_ORDER].reverse();
    expect(await verdicts(reversed)).toEqual(reversed.map((name) => ({ name, passed: true })));
    for (const name of ASSERTION_ORDER) expect(await verdicts([name])).toEqual([{ name, passed: true }]);
  }, 120_000);

  it("prints one line per assertion and the count through `SELFTEST=1 mca`", async () => {
    project = await createTempProject();
    const run = await project.run([], "", { MOCK: "1", SELFTEST: "1", TICKETS_PORT: "0" });
    const lines = run.stdout.trimEnd().split("\n");
    expect(lines).toHaveLength(15);
    expect(lines.at(-1)).toBe("14 passed, 0 failed");
    expect(run.code).toBe(0);
  });

  it("says plainly that the tickets port is taken and exits non-zero", async () => {
    const holder = createServer();
    await new Promise<void>((resolve) => holder.listen(0, "127.0.0.1", resolve));
    const address = holder.address();
    const port = typeof address === "object" && address !== null ? address.port : 0;
    try {
      project = await createTempProject();
      const run = await project.run([], "", { MOCK: "1", SELFTEST: "1", TICKETS_PORT: String(port) });
      expect(run.stderr).toBe(`selftest: port ${port} is already in use; stop what holds it or set TICKETS_PORT to a free port\n`);
      expect(run.code).toBe(1);
    } finally {
      await new Promise((resolve) => holder.close(resolve));
    }
  });
});
