import { createServer } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { createTempProject, type TempProject } from "../cli/test-support/run-cli.js";
import { ASSERTION_ORDER, runSelfTest } from "./run-selftest.js";

let project: TempProject | undefined;

afterEach(async () => {
  await project?.remove();
  project = undefined;
});

describe("the self-test", () => {
  it("passes all 14 assertions against the demo servers on a free port", async () => {
    const results = await runSelfTest({ ticketsPort: 0, clientVersion: "0.0.0-test", baseEnv: process.env });
    expect(results.map(({ name, passed }) => ({ name, passed }))).toEqual(ASSERTION_ORDER.map((name) => ({ name, passed: true })));
  });

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
