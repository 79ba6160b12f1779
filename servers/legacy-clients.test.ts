import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterEach, describe, expect, it } from "vitest";
import { startTicketsServer, type TicketsServer } from "./tickets.js";

const REPO_ROOT = fileURLToPath(new URL("../", import.meta.url));
/** What the official SDK v1 client (a 2025-era client, like most hosts today) shows its user. */
const SPEAKS_2026_ONLY = /-32022.*Unsupported protocol version: 2025-\d\d-\d\d \(this server speaks 2026-07-28 only/;

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function legacyClient(): Client {
  const client = new Client({ name: "legacy-host", version: "1.0.0" });
  cleanups.push(() => client.close());
  return client;
}

describe("the demo servers, met by a legacy (2025-11-25) client", () => {
  it("notes refuses the SDK v1 client's initialize saying it speaks 2026-07-28 only", async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: ["--import", "tsx", "servers/notes.ts"],
      cwd: REPO_ROOT,
      stderr: "pipe",
    });
    await expect(legacyClient().connect(transport)).rejects.toThrow(SPEAKS_2026_ONLY);
  });

  it("tickets refuses the SDK v1 client's initialize over HTTP with 400 saying it speaks 2026-07-28 only", async () => {
    const tickets: TicketsServer = await startTicketsServer({ port: 0 });
    cleanups.push(() => tickets.close());
    const transport = new StreamableHTTPClientTransport(new URL(tickets.url));
    await expect(legacyClient().connect(transport)).rejects.toThrow(SPEAKS_2026_ONLY);
  });
});
