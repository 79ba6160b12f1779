import { readFileSync } from "node:fs";
import { truncate, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { McpConfig } from "../mcp/index.js";
import { tempProjectPerTest } from "../tools/test-support/temp-project.js";
import { ConfigError, MAX_CONFIG_FILE_BYTES, type Env } from "./config-reader.js";
import { configuredSecrets, loadMcpConfig, mcpConfigAsWritten, parseMcpConfig } from "./mcp-config.js";

const FILE = "mcp.config.json";

function configOf(text: string, env: Env = {}): McpConfig {
  const result = parseMcpConfig(text, FILE, env);
  if (result instanceof ConfigError) throw new Error(`expected a config, got: ${result.message}`);
  return result;
}

function errorOf(text: string, env: Env = {}): Pick<ConfigError, "file" | "path" | "detail" | "position" | "message"> {
  const result = parseMcpConfig(text, FILE, env);
  if (!(result instanceof ConfigError)) throw new Error(`expected a ConfigError, got: ${JSON.stringify(result)}`);
  const { file, path, detail, position, message } = result;
  return { file, path, detail, position, message };
}

/** A config with one server, written over several lines so that positions are easy to read. */
function oneServer(alias: string, server: Record<string, unknown>): string {
  return JSON.stringify({ mcpServers: { [alias]: server } }, null, 2);
}

describe("parseMcpConfig", () => {
  it("reads the shipped mcp.config.json, with the tickets port defaulting to 3115", () => {
    const text = readFileSync(new URL("../../mcp.config.json", import.meta.url), "utf8");
    const expected = (port: string): McpConfig => ({
      file: FILE,
      servers: [
        { alias: "notes", transport: "stdio", command: "node", args: ["dist/servers/notes.js"], env: {}, enabled: true },
        { alias: "tickets", transport: "http", url: `http://127.0.0.1:${port}/mcp`, headers: {}, enabled: true },
      ],
    });
    expect(configOf(text)).toEqual(expected("3115"));
    expect(configOf(text, { TICKETS_PORT: "4000" })).toEqual(expected("4000"));
  });

  it("reads every field of a stdio and an HTTP server, expanding variables where they are allowed", () => {
    const text = JSON.stringify({
      mcpServers: {
        local: {
          type: "stdio",
          command: "${NODE:-node}",
          args: ["--home", "${HOME}"],
          env: { TOKEN: "${SECRET}", PLAIN: "1" },
          cwd: "${HOME}/work",
          maxLineBytes: 1048576,
          timeoutMs: 5000,
          startupTimeoutMs: 90000,
          enabled: false,
        },
        remote: {
          type: "http",
          url: "https://${HOST}/mcp",
          headers: { Authorization: "Bearer ${SECRET}" },
          timeoutMs: 30000,
          logLevel: "warning",
        },
      },
    });
    expect(configOf(text, { HOME: "/home/me", SECRET: "s3cret", HOST: "example.com" })).toEqual({
      file: FILE,
      servers: [
        {
          alias: "local",
          transport: "stdio",
          command: "node",
          args: ["--home", "/home/me"],
          env: { TOKEN: "s3cret", PLAIN: "1" },
          cwd: "${HOME}/work",
          maxLineBytes: 1048576,
          timeoutMs: 5000,
          startupTimeoutMs: 90000,
          enabled: false,
        },
        {
          alias: "remote",
          transport: "http",
          url: "https://example.com/mcp",
          headers: { Authorization: "Bearer s3cret" },
          timeoutMs: 30000,
          logLevel: "warning",
          enabled: true,
        },
      ],
    });
  });

  it("keeps a disabled server, marked enabled: false", () => {
    expect(configOf(oneServer("off", { command: "x", enabled: false })).servers).toEqual([
      { alias: "off", transport: "stdio", command: "x", args: [], env: {}, enabled: false },
    ]);
  });

  it("reads inheritEnv, the opt-in to pass the whole environment to a stdio server", () => {
    expect(configOf(oneServer("all", { command: "x", inheritEnv: true })).servers).toEqual([
      { alias: "all", transport: "stdio", command: "x", args: [], env: {}, inheritEnv: true, enabled: true },
    ]);
  });

  it("rejects an inheritEnv that is not true or false, at its position", () => {
    expect(errorOf(oneServer("all", { command: "x", inheritEnv: "yes" }))).toMatchObject({
      path: "mcpServers.all.inheritEnv",
      position: { line: 5, column: 21 },
    });
    expect(errorOf(oneServer("remote", { url: "http://a/", inheritEnv: true }))).toMatchObject({ path: "mcpServers.remote.inheritEnv" });
  });

  it("reads an HTTP server's oauth settings with ${VAR} expanded", () => {
    const oauth = { clientId: "${ID}", clientSecret: "${SECRET}", scopes: ["repo", "${SCOPE}"], callbackPort: 8765 };
    expect(configOf(oneServer("gh", { url: "https://example.com/mcp", oauth }), { ID: "mca-client", SECRET: "s3cret-value", SCOPE: "read:user" }).servers).toEqual([
      {
        alias: "gh",
        transport: "http",
        url: "https://example.com/mcp",
        headers: {},
        oauth: { clientId: "mca-client", clientSecret: "s3cret-value", scopes: ["repo", "read:user"], callbackPort: 8765 },
        enabled: true,
      },
    ]);
  });

  it("counts an oauth client secret among the config's secrets", () => {
    const config = configOf(oneServer("gh", { url: "https://example.com/mcp", oauth: { clientId: "id", clientSecret: "${SECRET}" } }), { SECRET: "s3cret-value" });
    expect(configuredSecrets(config, {})).toContain("s3cret-value");
  });

  it("rejects oauth mistakes at their position", () => {
    const url = "https://example.com/mcp";
    expect(errorOf(oneServer("gh", { url, oauth: { clientID: "x" } }))).toMatchObject({ path: "mcpServers.gh.oauth.clientID" });
    expect(errorOf(oneServer("gh", { url, oauth: { clientSecret: "x" } }))).toMatchObject({
      path: "mcpServers.gh.oauth.clientSecret",
      detail: "needs a clientId beside it",
    });
    expect(errorOf(oneServer("gh", { url, oauth: { callbackPort: 70000 } }))).toMatchObject({ path: "mcpServers.gh.oauth.callbackPort" });
    expect(errorOf(oneServer("gh", { url, oauth: { scopes: "repo" } }))).toMatchObject({ path: "mcpServers.gh.oauth.scopes" });
    expect(errorOf(oneServer("local", { command: "x", oauth: {} }))).toMatchObject({ path: "mcpServers.local.oauth" });
  });

  it.each(["http", "streamable-http", "streamableHttp"])('treats "type": "%s" as HTTP', (type) => {
    expect(configOf(oneServer("t", { type, url: "http://127.0.0.1:1/mcp" })).servers[0]?.transport).toBe("http");
  });

  it("treats a server with a url and no command or type as HTTP", () => {
    expect(configOf(oneServer("t", { url: "http://127.0.0.1:1/mcp" })).servers[0]?.transport).toBe("http");
  });

  it("accepts an empty mcpServers", () => {
    expect(configOf('{"mcpServers": {}}')).toEqual({ file: FILE, servers: [] });
  });

  it("rejects an alias written twice in the file, naming the alias and the file", () => {
    const text = '{\n  "mcpServers": {\n    "notes": {"command": "a"},\n    "notes": {"command": "b"}\n  }\n}';
    expect(errorOf(text)).toEqual({
      file: FILE,
      path: "mcpServers.notes",
      detail: 'duplicate alias "notes": two servers are written with the same name',
      position: { line: 4, column: 5 },
      message: 'mcp.config.json:4:5: mcpServers.notes: duplicate alias "notes": two servers are written with the same name',
    });
  });

  it("rejects a key written twice inside a server", () => {
    const text = '{"mcpServers": {"t": {"url": "http://a/", "headers": {"X": "1", "X": "2"}}}}';
    expect(errorOf(text)).toMatchObject({ path: "mcpServers.t.headers.X", detail: 'duplicate key "X": it is written more than once' });
  });

  it("rejects two aliases that give the same tool prefix after sanitising, naming both", () => {
    const text = '{"mcpServers": {\n"my.server": {"command": "a"},\n"my_server": {"command": "b"}}}';
    expect(errorOf(text)).toEqual({
      file: FILE,
      path: "mcpServers.my_server",
      detail: 'duplicate alias: "my.server" and "my_server" both give the tool prefix mcp__my_server__',
      position: { line: 3, column: 1 },
      message:
        'mcp.config.json:3:1: mcpServers.my_server: duplicate alias: "my.server" and "my_server" both give the tool prefix mcp__my_server__',
    });
  });

  it("rejects an empty alias", () => {
    expect(errorOf('{"mcpServers": {"": {"command": "a"}}}')).toMatchObject({
      path: 'mcpServers[""]',
      detail: "an alias must not be empty",
    });
  });

  it("names the variable and the path when a variable is not set", () => {
    const text = oneServer("tickets", { type: "http", url: "http://127.0.0.1/mcp", headers: { Authorization: "Bearer ${TICKETS_TOKEN}" } });
    expect(errorOf(text)).toEqual({
      file: FILE,
      path: "mcpServers.tickets.headers.Authorization",
      detail: "variable TICKETS_TOKEN is not set",
      position: { line: 7, column: 26 },
      message: "mcp.config.json:7:26: mcpServers.tickets.headers.Authorization: variable TICKETS_TOKEN is not set",
    });
  });

  it("names line and column of invalid JSON", () => {
    const text = '{\n  "mcpServers": {\n    "notes": {"command": "a",}\n  }\n}';
    expect(errorOf(text)).toEqual({
      file: FILE,
      path: "",
      detail: "invalid JSON: expected a property name in double quotes",
      position: { line: 3, column: 30 },
      message: "mcp.config.json:3:30: invalid JSON: expected a property name in double quotes",
    });
  });

  it("rejects an unknown field, listing the fields that are allowed", () => {
    expect(errorOf(oneServer("notes", { comand: "node" }))).toEqual({
      file: FILE,
      path: "mcpServers.notes.comand",
      detail: "unknown field (expected one of: type, timeoutMs, startupTimeoutMs, logLevel, enabled, command, args, env, inheritEnv, cwd, maxLineBytes)",
      position: { line: 4, column: 7 },
      message:
        "mcp.config.json:4:7: mcpServers.notes.comand: unknown field (expected one of: type, timeoutMs, startupTimeoutMs, logLevel, enabled, command, args, env, inheritEnv, cwd, maxLineBytes)",
    });
  });

  it("rejects a field of the other transport", () => {
    expect(errorOf(oneServer("notes", { command: "node", url: "http://a/" }))).toMatchObject({
      path: "mcpServers.notes.url",
      detail: "unknown field (expected one of: type, timeoutMs, startupTimeoutMs, logLevel, enabled, command, args, env, inheritEnv, cwd, maxLineBytes)",
    });
  });

  it("rejects an unknown top-level field", () => {
    expect(errorOf('{"mcpServers": {}, "servers": {}}')).toMatchObject({
      path: "servers",
      detail: "unknown field (expected one of: mcpServers)",
    });
  });

  const NOT_A_URL = "must be an http:// or https:// URL";
  const NOT_A_TIMEOUT = "must be a positive integer (milliseconds)";
  const LEVELS = 'must be one of "debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"';
  const TYPES = 'must be one of "stdio", "http", "streamable-http", "streamableHttp"';
  const SSE_HINT = ' (the old HTTP+SSE transport is not supported; Streamable HTTP is "http")';
  const HEADER_TEXT = "must be plain header text (no line breaks, nothing beyond U+00FF)";

  it.each([
    ["a url that is not a URL", { type: "http", url: "127.0.0.1:3115" }, "mcpServers.s.url", NOT_A_URL],
    ["a url of another scheme", { type: "http", url: "ftp://example.com/" }, "mcpServers.s.url", NOT_A_URL],
    ["a missing url", { type: "http" }, "mcpServers.s.url", "is required"],
    ["a non-string command", { command: ["node"] }, "mcpServers.s.command", "must be a string, not an array"],
    ["a missing command", { args: [] }, "mcpServers.s.command", "is required"],
    ["an empty command", { command: "${EMPTY}" }, "mcpServers.s.command", "must not be empty"],
    ["a zero timeoutMs", { command: "x", timeoutMs: 0 }, "mcpServers.s.timeoutMs", NOT_A_TIMEOUT],
    ["a fractional timeoutMs", { command: "x", timeoutMs: 1.5 }, "mcpServers.s.timeoutMs", NOT_A_TIMEOUT],
    ["a timeoutMs in a string", { command: "x", timeoutMs: "100" }, "mcpServers.s.timeoutMs", NOT_A_TIMEOUT],
    ["a zero startupTimeoutMs", { command: "x", startupTimeoutMs: 0 }, "mcpServers.s.startupTimeoutMs", NOT_A_TIMEOUT],
    ["a startupTimeoutMs in seconds as text", { url: "http://a/", startupTimeoutMs: "30s" }, "mcpServers.s.startupTimeoutMs", NOT_A_TIMEOUT],
    ["an unknown logLevel", { command: "x", logLevel: "verbose" }, "mcpServers.s.logLevel", LEVELS],
    ["a logLevel that is not a string", { url: "http://a/", logLevel: 3 }, "mcpServers.s.logLevel", "must be a string, not a number"],
    ["a non-boolean enabled", { command: "x", enabled: "no" }, "mcpServers.s.enabled", "must be true or false, not a string"],
    ["a non-string args item", { command: "x", args: ["a", 2] }, "mcpServers.s.args[1]", "must be a string, not a number"],
    ["args in a string", { command: "x", args: "a b" }, "mcpServers.s.args", "must be an array of strings, not a string"],
    ["a non-string env value", { command: "x", env: { A: 1 } }, "mcpServers.s.env.A", "must be a string, not a number"],
    ["a non-string cwd", { command: "x", cwd: null }, "mcpServers.s.cwd", "must be a string, not null"],
    ["a bad header name", { url: "http://a/", headers: { "X Key": "1" } }, 'mcpServers.s.headers["X Key"]', "is not a valid HTTP header name"],
    ["a header value with a line break", { url: "http://a/", headers: { X: "${EVIL}" } }, "mcpServers.s.headers.X", HEADER_TEXT],
    ["an unknown type", { type: "websocket", url: "ws://a/" }, "mcpServers.s.type", TYPES],
    ["the old SSE type", { type: "sse", url: "http://a/" }, "mcpServers.s.type", `${TYPES}${SSE_HINT}`],
  ])("rejects %s, naming its path", (_name, server, path, detail) => {
    const env = { EMPTY: "", EVIL: "a\r\nX-Injected: 1" };
    expect(errorOf(oneServer("s", server), env)).toMatchObject({ path, detail });
  });

  it("rejects a server that is not an object", () => {
    expect(errorOf('{"mcpServers": {"s": "node x.js"}}')).toMatchObject({
      path: "mcpServers.s",
      detail: "must be an object, not a string",
    });
  });

  it("rejects a file without mcpServers", () => {
    expect(errorOf("{}")).toMatchObject({ path: "mcpServers", detail: "is required", position: { line: 1, column: 1 } });
  });

  it("rejects a file whose root is not an object", () => {
    expect(errorOf("[]")).toMatchObject({
      path: "",
      detail: "must be an object, not an array",
      message: "mcp.config.json:1:1: must be an object, not an array",
    });
  });
});

describe("mcpConfigAsWritten", () => {
  const text = JSON.stringify({
    mcpServers: {
      local: { command: "${NODE:-node}", args: ["--key", "${API_KEY}"], env: { TOKEN: "Bearer ${SECRET}" }, cwd: "tools" },
      tickets: {
        url: "http://127.0.0.1:${TICKETS_PORT}/mcp",
        headers: { Authorization: "Bearer ${SECRET}" },
        oauth: { clientId: "${CLIENT}", clientSecret: "${CLIENT_SECRET}", scopes: ["${SCOPE:-read}"] },
      },
    },
  });
  const env = { API_KEY: "k-123", SECRET: "s3cret", TICKETS_PORT: "4000", CLIENT: "c", CLIENT_SECRET: "cs" };

  it("keeps every ${VAR} as written, showing no value of the environment", () => {
    expect(mcpConfigAsWritten(text, FILE, env)).toEqual({
      file: FILE,
      servers: [
        { alias: "local", transport: "stdio", command: "${NODE:-node}", args: ["--key", "${API_KEY}"], env: { TOKEN: "Bearer ${SECRET}" }, cwd: "tools", enabled: true },
        {
          alias: "tickets",
          transport: "http",
          url: "http://127.0.0.1:${TICKETS_PORT}/mcp",
          headers: { Authorization: "Bearer ${SECRET}" },
          oauth: { clientId: "${CLIENT}", clientSecret: "${CLIENT_SECRET}", scopes: ["${SCOPE:-read}"] },
          enabled: true,
        },
      ],
    });
  });

  it("checks a URL once its variables are expanded, so a ${VAR} port is a URL and a bad value is not", () => {
    expect(configOf(text, env).servers[1]).toMatchObject({ url: "http://127.0.0.1:4000/mcp" });
    const bad = { ...env, TICKETS_PORT: "not-a-port" };
    const asRun = parseMcpConfig(text, FILE, bad);
    expect(asRun).toBeInstanceOf(ConfigError);
    expect(mcpConfigAsWritten(text, FILE, bad)).toEqual(asRun);
    expect(asRun instanceof ConfigError ? asRun.message : "").toBe("mcp.config.json:1:148: mcpServers.tickets.url: must be an http:// or https:// URL");
  });

  it("fails where the real parse fails: a variable that is not set", () => {
    const { TICKETS_PORT: _unset, ...rest } = env;
    const error = mcpConfigAsWritten(text, FILE, rest);
    expect(error instanceof ConfigError ? error.detail : error).toBe("variable TICKETS_PORT is not set");
  });
});

describe("loadMcpConfig", () => {
  const directory = tempProjectPerTest("mca-config-");

  it("reads and validates the file, with the environment it is given", async () => {
    const file = join(directory(), "mcp.config.json");
    await writeFile(file, '{"mcpServers": {"notes": {"command": "node", "args": ["${SCRIPT}"]}}}');
    expect(await loadMcpConfig(file, { SCRIPT: "notes.js" })).toEqual({
      file,
      servers: [{ alias: "notes", transport: "stdio", command: "node", args: ["notes.js"], env: {}, enabled: true }],
    });
  });

  it("returns the ConfigError of an invalid file", async () => {
    const file = join(directory(), "bad.json");
    await writeFile(file, '{"mcpServers": {"notes": {"command": 1}}}');
    const error = await loadMcpConfig(file, {});
    expect(error).toBeInstanceOf(ConfigError);
    expect(error).toMatchObject({ file, path: "mcpServers.notes.command", detail: "must be a string, not a number" });
  });

  it("returns a ConfigError for a file larger than any config, without reading it", async () => {
    const file = join(directory(), "huge.json");
    await writeFile(file, "");
    await truncate(file, MAX_CONFIG_FILE_BYTES + 1);
    const error = await loadMcpConfig(file, {});
    expect(error instanceof ConfigError ? error.message : error).toBe(`${file}: cannot read the file: larger than 4 MiB`);
  });

  it("returns a ConfigError naming a file that cannot be read", async () => {
    const file = join(directory(), "missing.json");
    const error = await loadMcpConfig(file, {});
    expect(error).toBeInstanceOf(ConfigError);
    expect(error).toMatchObject({ file, path: "" });
    expect(error instanceof ConfigError && error.detail).toMatch(/^cannot read the file: ENOENT/);
  });
});

describe("configuredSecrets", () => {
  it("lists every header and env value, the long words inside them, and the model's credentials from the environment", () => {
    const config = configOf(
      JSON.stringify({
        mcpServers: {
          local: { command: "x", env: { TOKEN: "${SECRET}", PLAIN: "1" }, enabled: false },
          remote: { url: "https://a/mcp", headers: { Authorization: "Bearer ${SECRET}-h" } },
        },
      }),
      { SECRET: "s3cret-value" },
    );
    const env = { ANTHROPIC_API_KEY: "sk-ant-key", ANTHROPIC_AUTH_TOKEN: "", HOME: "/home/me" };
    expect(configuredSecrets(config, env)).toEqual(["s3cret-value", "1", "Bearer s3cret-value-h", "s3cret-value-h", "sk-ant-key"]);
    expect(configuredSecrets(null, {})).toEqual([]);
  });
});
