import { afterEach, describe, expect, it } from "vitest";
import type { StdioServerConfig } from "../config/index.js";
import { isJsonObject } from "./jsonrpc.js";
import { ServerConnection } from "./server-connection.js";
import { legacyStdioServer } from "./test-support/legacy-stdio-server.js";

const opened: ServerConnection[] = [];

afterEach(async () => {
  await Promise.all(opened.splice(0).map((connection) => connection.close()));
});

function legacyConnection(...flags: string[]): ServerConnection {
  const spec: StdioServerConfig = { alias: "old", transport: "stdio", env: {}, enabled: true, ...legacyStdioServer(...flags) };
  const connection = new ServerConnection(spec, { clientVersion: "0.15.0", configFile: "/tmp/mcp.config.json", baseEnv: {}, onWarning: () => undefined });
  opened.push(connection);
  return connection;
}

describe("ServerConnection with a legacy server", () => {
  it("comes up connected and shows the version initialize agreed", async () => {
    const connection = legacyConnection();
    await connection.connect();
    expect(connection.status()).toEqual({
      alias: "old",
      transport: "stdio",
      state: "connected",
      protocolVersion: "2025-11-25",
      tools: 2,
      error: null,
      stderrTail: null,
    });
  });

  it("runs the handshake again on a restarted child before calling it", async () => {
    const connection = legacyConnection();
    await connection.connect();
    expect(await connection.callTool("exit", {}, {})).toBeInstanceOf(Error);
    expect(connection.state).toBe("disconnected");

    const received = await connection.callTool("received", {}, {});
    const structured = !(received instanceof Error) && received.kind === "complete" ? received.structuredContent : undefined;
    const messages = isJsonObject(structured) && Array.isArray(structured.messages) ? structured.messages.filter(isJsonObject) : [];
    expect(messages.map((message) => message.method)).toEqual(["initialize", "notifications/initialized", "tools/call"]);
    expect(connection.status()).toMatchObject({ state: "connected", protocolVersion: "2025-11-25" });
  });
});
