import { describe, expect, it } from "vitest";
import type { StdioServerConfig } from "./mcp-config.js";
import { redactServer } from "./redact-server.js";

describe("redactServer", () => {
  it("replaces every env value of a stdio server and keeps the rest", () => {
    const server: Omit<StdioServerConfig, "env"> = { alias: "notes", transport: "stdio", command: "node", args: ["x.js"], enabled: true };
    expect(redactServer({ ...server, env: { TOKEN: "s3cret", A: "" } })).toEqual({ ...server, env: { TOKEN: "***", A: "***" } });
  });

  it("replaces every header value of an HTTP server and keeps a plain URL verbatim", () => {
    expect(
      redactServer({
        alias: "tickets",
        transport: "http",
        url: "http://127.0.0.1:3115/mcp",
        headers: { Authorization: "Bearer s3cret" },
        timeoutMs: 100,
        enabled: true,
      }),
    ).toEqual({
      alias: "tickets",
      transport: "http",
      url: "http://127.0.0.1:3115/mcp",
      headers: { Authorization: "***" },
      timeoutMs: 100,
      enabled: true,
    });
  });

  it("hides credentials and query values in the URL", () => {
    const redacted = redactServer({
      alias: "t",
      transport: "http",
      url: "https://me:pw@example.com/mcp?apiKey=s3cret&region=eu",
      headers: {},
      enabled: true,
    });
    expect(redacted).toMatchObject({ url: "https://***:***@example.com/mcp?apiKey=***&region=***" });
  });
});
