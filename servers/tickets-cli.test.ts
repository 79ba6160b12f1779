import { describe, expect, it } from "vitest";
import { startTicketsServer } from "./tickets.js";
import { spawnTsServer } from "./test-support/child-lines.js";

describe("tickets CLI", () => {
  it("says the port is taken in one line and exits with status 1", async () => {
    const taken = await startTicketsServer({ port: 0 });
    const cli = spawnTsServer("servers/tickets.ts", ["--port", String(taken.port)]);
    try {
      expect(await cli.exited()).toBe(1);
      expect(cli.stderr()).toBe(`tickets: port ${taken.port} is already in use\n`);
    } finally {
      await cli.stop();
      await taken.close();
    }
  });
});
