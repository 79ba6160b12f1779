import { mkdirSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import { truncate, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempProjectPerTest } from "../tools/test-support/temp-project.js";
import { ConfigError, MAX_CONFIG_FILE_BYTES, type Env } from "./config-reader.js";
import { configuredSecrets, loadMcpConfig, mcpConfigAsWritten, neededInputs, parseMcpConfig, type McpConfigFile } from "./mcp-config.js";

const FILE = "mcp.config.json";

function configOf(text: string, env: Env = {}): McpConfigFile {
  const result = parseMcpConfig(text, FILE, env);
  if (result instanceof ConfigError) throw new Error(`expected a config, got: ${result.message}`);
  return result;
}

type ErrorFields = Pick<ConfigError, "file" | "path" | "detail" | "position" | "message">;

function fieldsOf({ file, path, detail, position, message }: ConfigError): ErrorFields {
  return { file, path, detail, position, message };
}

function errorOf(text: string, env: Env = {}): ErrorFields {
  const result = parseMcpConfig(text, FILE, env);
  if (!(result instanceof ConfigError)) throw new Error(`expected a ConfigError, got: ${JSON.stringify(result)}`);
  return fieldsOf(result);
}

/** The error of the one entry a config skips. */
function skippedErrorOf(text: string, env: Env = {}): ErrorFields {
  const { servers, skipped, warnings } = configOf(text, env);
  const [only] = skipped;
  if (only === undefined || skipped.length > 1 || servers.length > 0) throw new Error(`expected one entry skipped, got: ${JSON.stringify({ servers, skipped })}`);
  expect(warnings).toEqual([]);
  return fieldsOf(only.error);
}

/** What the user hears of a config beside its servers: each skipped alias with its message, then each warning. */
function noticesOf(text: string, env: Env = {}): { skipped: { alias: string; message: string }[]; warnings: string[] } {
  const { skipped, warnings } = configOf(text, env);
  return { skipped: skipped.map(({ alias, error }) => ({ alias, message: error.message })), warnings: warnings.map((warning) => warning.message) };
}

/** A config with one server, written over several lines so that positions are easy to read. */
function oneServer(alias: string, server: Record<string, unknown>): string {
  return JSON.stringify({ mcpServers: { [alias]: server } }, null, 2);
}

describe("parseMcpConfig", () => {
  it("reads the shipped mcp.config.json, with the tickets port defaulting to 3115", () => {
    const text = readFileSync(new URL("../../mcp.config.json", import.meta.url), "utf8");
    const expected = (port: string): McpConfigFile => ({
      file: FILE,
      servers: [
        { alias: "notes", transport: "stdio", command: "node", args: ["dist/servers/notes.js"], env: {}, enabled: true },
        { alias: "tickets", transport: "http", url: `http://127.0.0.1:${port}/mcp`, headers: {}, enabled: true },
      ],
      skipped: [],
      warnings: [],
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
      skipped: [],
      warnings: [],
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

  it("skips a server whose inheritEnv is not true or false, naming its position", () => {
    expect(skippedErrorOf(oneServer("all", { command: "x", inheritEnv: "yes" }))).toMatchObject({
      path: "mcpServers.all.inheritEnv",
      position: { line: 5, column: 21 },
    });
  });

  it("reads an HTTP server's oauth settings with ${VAR} expanded", () => {
    const oauth = { clientId: "${ID}", clientSecret: "${SECRET}", issuer: "https://${AUTH_HOST}", scopes: ["repo", "${SCOPE}"], callbackPort: 8765 };
    const env = { ID: "mca-client", SECRET: "s3cret-value", AUTH_HOST: "auth.example.com", SCOPE: "read:user" };
    expect(configOf(oneServer("gh", { url: "https://example.com/mcp", oauth }), env).servers).toEqual([
      {
        alias: "gh",
        transport: "http",
        url: "https://example.com/mcp",
        headers: {},
        oauth: { clientId: "mca-client", clientSecret: "s3cret-value", issuer: "https://auth.example.com", scopes: ["repo", "read:user"], callbackPort: 8765 },
        enabled: true,
      },
    ]);
  });

  it("counts an oauth client secret among the config's secrets", () => {
    const config = configOf(oneServer("gh", { url: "https://example.com/mcp", oauth: { clientId: "id", clientSecret: "${SECRET}" } }), { SECRET: "s3cret-value" });
    expect(configuredSecrets(config, {})).toContain("s3cret-value");
  });

  it("skips a server with an oauth mistake, naming its position", () => {
    const url = "https://example.com/mcp";
    expect(skippedErrorOf(oneServer("gh", { url, oauth: { clientID: "x" } }))).toMatchObject({ path: "mcpServers.gh.oauth.clientID" });
    expect(skippedErrorOf(oneServer("gh", { url, oauth: { clientSecret: "x" } }))).toMatchObject({
      path: "mcpServers.gh.oauth.clientSecret",
      detail: "needs a clientId beside it",
    });
    expect(skippedErrorOf(oneServer("gh", { url, oauth: { callbackPort: 70000 } }))).toMatchObject({ path: "mcpServers.gh.oauth.callbackPort" });
    expect(skippedErrorOf(oneServer("gh", { url, oauth: { scopes: "repo" } }))).toMatchObject({ path: "mcpServers.gh.oauth.scopes" });
  });

  it("skips a server whose oauth.issuer is not an https URL (http only on this machine), naming its place", () => {
    const detail =
      "must be an https:// URL (http:// only on localhost, 127.x.x.x or [::1]) without query or fragment: the authorization server the client secret is for";
    const issuerError = (issuer: string) => skippedErrorOf(oneServer("gh", { url: "https://example.com/mcp", oauth: { clientId: "id", issuer } }));
    expect(issuerError("http://auth.example.com")).toEqual({
      file: FILE,
      path: "mcpServers.gh.oauth.issuer",
      detail,
      position: { line: 7, column: 19 },
      message: `${FILE}:7:19: mcpServers.gh.oauth.issuer: ${detail}`,
    });
    expect(["https://auth.example.com?tenant=1", "auth.example.com", ""].map((issuer) => issuerError(issuer).detail)).toEqual([detail, detail, detail]);
  });

  it("reads an oauth.issuer over plain http on this machine", () => {
    const config = configOf(oneServer("local", { url: "http://127.0.0.1:3000/mcp", oauth: { clientId: "id", clientSecret: "s", issuer: "http://127.0.0.1:4000" } }));
    expect(config.servers[0]).toMatchObject({ oauth: { clientId: "id", clientSecret: "s", issuer: "http://127.0.0.1:4000" } });
  });

  it.each(["http", "streamable-http", "streamableHttp"])('treats "type": "%s" as HTTP', (type) => {
    expect(configOf(oneServer("t", { type, url: "http://127.0.0.1:1/mcp" })).servers[0]?.transport).toBe("http");
  });

  it("treats a server with a url and no command or type as HTTP", () => {
    expect(configOf(oneServer("t", { url: "http://127.0.0.1:1/mcp" })).servers[0]?.transport).toBe("http");
  });

  it("accepts an empty mcpServers", () => {
    expect(configOf('{"mcpServers": {}}')).toEqual({ file: FILE, servers: [], skipped: [], warnings: [] });
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

  it("skips a server with an empty alias", () => {
    expect(skippedErrorOf('{"mcpServers": {"": {"command": "a"}}}')).toMatchObject({
      path: 'mcpServers[""]',
      detail: "an alias must not be empty",
    });
  });

  it("skips a server that uses a variable that is not set, naming the variable and the path", () => {
    const text = oneServer("tickets", { type: "http", url: "http://127.0.0.1/mcp", headers: { Authorization: "Bearer ${TICKETS_TOKEN}" } });
    expect(skippedErrorOf(text)).toEqual({
      file: FILE,
      path: "mcpServers.tickets.headers.Authorization",
      detail: "variable TICKETS_TOKEN is not set",
      position: { line: 7, column: 26 },
      message: "mcp.config.json:7:26: mcpServers.tickets.headers.Authorization: variable TICKETS_TOKEN is not set",
    });
  });

  it("names line and column of invalid JSON", () => {
    const text = '{\n  "mcpServers": {\n    "notes": {"command": "a" "args": []}\n  }\n}';
    expect(errorOf(text)).toEqual({
      file: FILE,
      path: "",
      detail: "invalid JSON: expected ',' or '}' after a property value",
      position: { line: 3, column: 30 },
      message: "mcp.config.json:3:30: invalid JSON: expected ',' or '}' after a property value",
    });
  });

  it("reads comments and trailing commas, as VS Code's JSONC files have them, and names positions as written", () => {
    const text = '{\n  // mine\n  "mcpServers": {\n    "notes": {"command": "a", /* note */ "comand": 1,},\n  },\n}';
    expect(noticesOf(text).warnings).toEqual([`mcp.config.json:4:42: mcpServers.notes.comand: unknown field, ignored (mca reads: ${STDIO_FIELDS})`]);
  });

  const COMMON_FIELDS = "type, timeoutMs, timeout, startupTimeoutMs, logLevel, roots, enabled, disabled, includeTools, enabled_tools, tools, excludeTools, disabled_tools, disabledTools, alwaysAllow, autoApprove, trust";
  const STDIO_FIELDS = `${COMMON_FIELDS}, command, args, env, inheritEnv, pidNamespace, cwd, maxLineBytes`;

  it("starts a server with an unknown field and warns of the field at its place, listing the fields mca reads", () => {
    const config = configOf(oneServer("notes", { command: "node", comand: "node" }));
    expect(config.servers).toEqual([{ alias: "notes", transport: "stdio", command: "node", args: [], env: {}, enabled: true }]);
    expect(noticesOf(oneServer("notes", { command: "node", comand: "node" }))).toEqual({
      skipped: [],
      warnings: [`mcp.config.json:5:7: mcpServers.notes.comand: unknown field, ignored (mca reads: ${STDIO_FIELDS})`],
    });
  });

  it("warns of a field of the other transport and of an unknown top-level field, and reads the rest", () => {
    const text = '{"mcpServers": {"notes": {"command": "node", "url": "http://a/", "oauth": {}}}, "server": {}}';
    expect(configOf(text).servers.map((server) => server.alias)).toEqual(["notes"]);
    expect(noticesOf(text)).toEqual({
      skipped: [],
      warnings: [
        "mcp.config.json:1:81: server: unknown field, ignored (mca reads: mcpServers, servers, inputs, $schema)",
        `mcp.config.json:1:46: mcpServers.notes.url: unknown field, ignored (mca reads: ${STDIO_FIELDS})`,
        `mcp.config.json:1:66: mcpServers.notes.oauth: unknown field, ignored (mca reads: ${STDIO_FIELDS})`,
      ],
    });
  });

  const NOT_A_URL = "must be an http:// or https:// URL";
  const NOT_A_TIMEOUT = "must be a positive integer (milliseconds)";
  const LEVELS = 'must be one of "debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"';
  const TYPES = 'must be one of "stdio", "http", "streamable-http", "streamableHttp", "sse", "local"';
  const HEADER_TEXT = "must be plain header text (no line breaks, nothing beyond U+00FF)";

  it.each([
    ["a url that is not a URL", { type: "http", url: "127.0.0.1:3115" }, "mcpServers.s.url", NOT_A_URL],
    ["a url of another scheme", { type: "http", url: "ftp://example.com/" }, "mcpServers.s.url", NOT_A_URL],
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
    ["an old SSE server without a url", { type: "sse", headers: {} }, "mcpServers.s.url", "is required (httpUrl and serverUrl are read as url too)"],
    ["a missing url under any name", { type: "http", headers: {} }, "mcpServers.s.url", "is required (httpUrl and serverUrl are read as url too)"],
    ["an httpUrl that is not a URL", { httpUrl: "localhost:3000" }, "mcpServers.s.httpUrl", NOT_A_URL],
    ["a non-boolean disabled", { command: "x", disabled: "yes" }, "mcpServers.s.disabled", "must be true or false, not a string"],
    ["a disabled that contradicts enabled", { command: "x", enabled: true, disabled: true }, "mcpServers.s.disabled", 'contradicts "enabled": true beside it'],
  ])("skips a server with %s, naming its path", (_name, server, path, detail) => {
    const env = { EMPTY: "", EVIL: "a\r\nX-Injected: 1" };
    expect(skippedErrorOf(oneServer("s", server), env)).toMatchObject({ path, detail });
  });

  it("skips a server that is not an object", () => {
    expect(skippedErrorOf('{"mcpServers": {"s": "node x.js"}}')).toMatchObject({
      path: "mcpServers.s",
      detail: "must be an object, not a string",
    });
  });

  it("rejects a file without mcpServers", () => {
    expect(errorOf("{}")).toMatchObject({ path: "mcpServers", detail: 'is required (VS Code\'s "servers" is read too)', position: { line: 1, column: 1 } });
  });

  it("rejects a file whose root is not an object", () => {
    expect(errorOf("[]")).toMatchObject({
      path: "",
      detail: "must be an object, not an array",
      message: "mcp.config.json:1:1: must be an object, not an array",
    });
  });
});

describe("parseMcpConfig with entries copied from other hosts", () => {
  it("reads disabled: true as a server that is not started, and disabled: false as one that is", () => {
    const text = JSON.stringify({ mcpServers: { off: { command: "x", disabled: true }, on: { command: "y", disabled: false } } });
    expect(configOf(text)).toEqual({
      file: FILE,
      servers: [
        { alias: "off", transport: "stdio", command: "x", args: [], env: {}, enabled: false },
        { alias: "on", transport: "stdio", command: "y", args: [], env: {}, enabled: true },
      ],
      skipped: [],
      warnings: [],
    });
  });

  it.each(["httpUrl", "serverUrl"])("reads %s as the url of an HTTP server", (field) => {
    expect(configOf(oneServer("remote", { [field]: "https://${HOST}/mcp" }), { HOST: "example.com" }).servers).toEqual([
      { alias: "remote", transport: "http", url: "https://example.com/mcp", headers: {}, enabled: true },
    ]);
  });

  it("takes url and httpUrl that name the same URL once expanded", () => {
    const text = oneServer("remote", { url: "https://example.com/mcp", httpUrl: "https://${HOST}/mcp" });
    expect(configOf(text, { HOST: "example.com" }).servers).toEqual([{ alias: "remote", transport: "http", url: "https://example.com/mcp", headers: {}, enabled: true }]);
  });

  it("skips a server whose url names disagree, at the second one, and starts the others", () => {
    const text = JSON.stringify({ mcpServers: { local: { command: "x" }, remote: { url: "https://a.example/mcp", serverUrl: "https://b.example/mcp" } } }, null, 2);
    expect(configOf(text).servers.map((server) => server.alias)).toEqual(["local"]);
    expect(noticesOf(text)).toEqual({
      skipped: [{ alias: "remote", message: 'mcp.config.json:8:7: mcpServers.remote.serverUrl: names another URL than "url" does; keep one of them' }],
      warnings: [],
    });
  });

  it('reads a "type": "sse" server as one of the old HTTP+SSE transport, with its headers and login settings', () => {
    const text = JSON.stringify({ mcpServers: { old: { type: "sse", url: "http://127.0.0.1:3001/sse", headers: { "X-Key": "k" }, oauth: { clientId: "c" } } } });
    expect(configOf(text).servers).toEqual([
      { alias: "old", transport: "sse", url: "http://127.0.0.1:3001/sse", headers: { "X-Key": "k" }, oauth: { clientId: "c" }, enabled: true },
    ]);
  });

  it("never applies alwaysAllow or autoApprove, and warns once per server with the --allow rule of each tool", () => {
    const text = JSON.stringify(
      {
        mcpServers: {
          fs: { command: "x", alwaysAllow: ["read_file", "list_directory"], autoApprove: ["read_file", "it's"] },
          memory: { command: "y", autoApprove: ["read_graph"] },
          none: { command: "z", alwaysAllow: [] },
        },
      },
      null,
      2,
    );
    const config = configOf(text);
    expect(config.servers.map(({ alias, enabled }) => ({ alias, enabled }))).toEqual([
      { alias: "fs", enabled: true },
      { alias: "memory", enabled: true },
      { alias: "none", enabled: true },
    ]);
    expect(noticesOf(text)).toEqual({
      skipped: [],
      warnings: [
        "mcp.config.json:5:7: mcpServers.fs.alwaysAllow: not applied: a config file never lets a tool run without asking; " +
          "to let those tools run without asking, start mca with --allow mcp__fs__read_file --allow mcp__fs__list_directory --allow 'mcp__fs__it'\\''s'",
        "mcp.config.json:16:7: mcpServers.memory.autoApprove: not applied: a config file never lets a tool run without asking; " +
          "to let that tool run without asking, start mca with --allow mcp__memory__read_graph",
      ],
    });
  });

  it("never applies trust: true, and names the rule that allows every tool of the server", () => {
    const text = oneServer("gemini", { command: "x", trust: true, alwaysAllow: ["one"] });
    expect(noticesOf(text)).toEqual({
      skipped: [],
      warnings: [
        "mcp.config.json:5:7: mcpServers.gemini.trust: not applied: a config file never lets a tool run without asking; " +
          `to let every tool of "gemini" run without asking, start mca with --allow 'mcp__gemini__*'`,
      ],
    });
    expect(noticesOf(oneServer("gemini", { command: "x", trust: false }))).toEqual({ skipped: [], warnings: [] });
  });

  it("reads a Claude Desktop, Cursor, Cline and Gemini CLI file together: the usable servers, a warning per unknown field, the rest skipped", () => {
    const text = JSON.stringify(
      {
        mcpServers: {
          filesystem: { command: "npx", args: ["-y", "@modelcontextprotocol/server-filesystem", "/tmp"], disabled: false, autoApprove: [] },
          github: { url: "https://api.example.com/mcp", headers: { Authorization: "Bearer ${TOKEN}" } },
          gemini: { httpUrl: "https://gemini.example/mcp", timeout: 30000, trust: false },
          cline: { type: "streamableHttp", url: "https://cline.example/mcp", disabled: true, alwaysAllow: [] },
          broken: { args: ["no command"] },
        },
      },
      null,
      2,
    );
    expect(configOf(text, { TOKEN: "t0ken" })).toEqual({
      file: FILE,
      servers: [
        { alias: "filesystem", transport: "stdio", command: "npx", args: ["-y", "@modelcontextprotocol/server-filesystem", "/tmp"], env: {}, enabled: true },
        { alias: "github", transport: "http", url: "https://api.example.com/mcp", headers: { Authorization: "Bearer t0ken" }, enabled: true },
        { alias: "gemini", transport: "http", url: "https://gemini.example/mcp", headers: {}, timeoutMs: 30000, enabled: true },
        { alias: "cline", transport: "http", url: "https://cline.example/mcp", headers: {}, enabled: false },
      ],
      skipped: [{ alias: "broken", error: expect.any(ConfigError) }],
      warnings: [],
    });
    expect(noticesOf(text, { TOKEN: "t0ken" })).toEqual({
      skipped: [{ alias: "broken", message: "mcp.config.json:30:15: mcpServers.broken.command: is required" }],
      warnings: [],
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
      skipped: [],
      warnings: [],
    });
  });

  /** The aliases a reading starts and skips, and the messages of those it skips. */
  function outcome(read: McpConfigFile | ConfigError): { servers: string[]; skipped: string[] } | string {
    if (read instanceof ConfigError) return read.message;
    return { servers: read.servers.map((server) => server.alias), skipped: read.skipped.map(({ alias, error }) => `${alias}: ${error.message}`) };
  }

  it("checks a URL once its variables are expanded, so a ${VAR} port is a URL and a bad value is not", () => {
    expect(configOf(text, env).servers[1]).toMatchObject({ url: "http://127.0.0.1:4000/mcp" });
    const bad = { ...env, TICKETS_PORT: "not-a-port" };
    const error = "mcp.config.json:1:148: mcpServers.tickets.url: must be an http:// or https:// URL";
    expect(outcome(parseMcpConfig(text, FILE, bad))).toEqual({ servers: ["local"], skipped: [`tickets: ${error}`] });
    expect(outcome(mcpConfigAsWritten(text, FILE, bad))).toEqual(error);
  });

  it("fails on an entry the real parse skips, so a server whose variable is not set now is never trusted unseen", () => {
    const { TICKETS_PORT: _unset, ...rest } = env;
    const error = "mcp.config.json:1:148: mcpServers.tickets.url: variable TICKETS_PORT is not set";
    expect(outcome(parseMcpConfig(text, FILE, rest))).toEqual({ servers: ["local"], skipped: [`tickets: ${error}`] });
    expect(outcome(mcpConfigAsWritten(text, FILE, rest))).toEqual(error);
  });

  it("keeps a disabled server and the warnings, which start nothing", () => {
    const read = mcpConfigAsWritten(oneServer("off", { command: "${TOOL}", disabled: true, alwaysAllow: ["x"] }), FILE, { TOOL: "t" });
    expect(read instanceof ConfigError ? read.message : { servers: read.servers, warnings: read.warnings.map((warning) => warning.path) }).toEqual({
      servers: [{ alias: "off", transport: "stdio", command: "${TOOL}", args: [], env: {}, enabled: false }],
      warnings: ["mcpServers.off.alwaysAllow"],
    });
  });
});

describe("parseMcpConfig: roots", () => {
  const project = tempProjectPerTest("mca-roots-");
  const outside = tempProjectPerTest("mca-roots-outside-");

  /** The project's own config, with its folders src/ and docs/ and a link to src/. */
  function projectConfig(server: Record<string, unknown>, fromProject = true): McpConfigFile {
    mkdirSync(join(project(), "src"));
    mkdirSync(join(project(), "docs"));
    symlinkSync(join(project(), "src"), join(project(), "link"));
    const file = join(project(), FILE);
    const result = parseMcpConfig(oneServer("fs", { command: "x", ...server }), file, {}, { projectDir: project(), fromProject });
    if (result instanceof ConfigError) throw new Error(`expected a config, got: ${result.message}`);
    return result;
  }

  it("reads a list of folders, relative to the project or absolute, as their real paths, each once", () => {
    const real = realpathSync(project());
    const config = projectConfig({ roots: ["src", join(project(), "docs"), "link", "./src/"] });
    expect(config.servers).toEqual([{ alias: "fs", transport: "stdio", command: "x", args: [], env: {}, roots: [join(real, "src"), join(real, "docs")], enabled: true }]);
    expect(config.warnings).toEqual([]);
  });

  it("reads roots: false, which declares no roots to the server, and roots: [], which declares none listed", () => {
    expect([projectConfig({ roots: false }).servers[0]?.roots, configOf(oneServer("fs", { url: "http://127.0.0.1:1/mcp", roots: [] })).servers[0]?.roots]).toEqual([false, []]);
  });

  it("leaves out a folder that is not there, with a warning at its place naming the entry, and keeps the rest", () => {
    writeFileSync(join(project(), "file.txt"), "");
    const config = projectConfig({ roots: ["src", "missing", "file.txt"] });
    expect(config.servers[0]?.roots).toEqual([join(realpathSync(project()), "src")]);
    expect(config.warnings.map(fieldsOf)).toEqual([
      {
        file: join(project(), FILE),
        path: "mcpServers.fs.roots[1]",
        detail: '"missing" does not exist, so it is left out of the roots',
        position: { line: 7, column: 9 },
        message: `${join(project(), FILE)}:7:9: mcpServers.fs.roots[1]: "missing" does not exist, so it is left out of the roots`,
      },
      {
        file: join(project(), FILE),
        path: "mcpServers.fs.roots[2]",
        detail: '"file.txt" is not a folder, so it is left out of the roots',
        position: { line: 8, column: 9 },
        message: `${join(project(), FILE)}:8:9: mcpServers.fs.roots[2]: "file.txt" is not a folder, so it is left out of the roots`,
      },
    ]);
  });

  it("warns of a folder outside the project in the project's own config, and keeps it", () => {
    const real = realpathSync(outside());
    const config = projectConfig({ roots: [outside(), "link/.."] });
    expect(config.servers[0]?.roots).toEqual([real, realpathSync(project())]);
    expect(config.warnings.map((warning) => warning.message)).toEqual([
      `${join(project(), FILE)}:6:9: mcpServers.fs.roots[0]: ${JSON.stringify(outside())} is outside the project folder: this project's own config offers ${JSON.stringify(real)} to the server as a folder to work in`,
    ]);
  });

  it("takes a folder outside the project from a config the user named (--mcp-config) without a warning", () => {
    expect(projectConfig({ roots: [outside()] }, false)).toMatchObject({ servers: [{ roots: [realpathSync(outside())] }], warnings: [] });
  });

  it("skips a server whose roots are neither false nor a list of folder names, naming the place", () => {
    const skipped = (roots: unknown): ErrorFields => skippedErrorOf(oneServer("fs", { command: "x", roots }));
    expect([skipped(true), skipped("src"), skipped(["src", 3]), skipped([""])]).toEqual([
      {
        file: FILE,
        path: "mcpServers.fs.roots",
        detail: "must be false or a list of folders (without it, the root is the project folder)",
        position: { line: 5, column: 16 },
        message: `${FILE}:5:16: mcpServers.fs.roots: must be false or a list of folders (without it, the root is the project folder)`,
      },
      {
        file: FILE,
        path: "mcpServers.fs.roots",
        detail: "must be false or a list of folders (without it, the root is the project folder)",
        position: { line: 5, column: 16 },
        message: `${FILE}:5:16: mcpServers.fs.roots: must be false or a list of folders (without it, the root is the project folder)`,
      },
      {
        file: FILE,
        path: "mcpServers.fs.roots[1]",
        detail: "must be a string, not a number",
        position: { line: 7, column: 9 },
        message: `${FILE}:7:9: mcpServers.fs.roots[1]: must be a string, not a number`,
      },
      {
        file: FILE,
        path: "mcpServers.fs.roots[0]",
        detail: 'must not be empty (the project folder is ".")',
        position: { line: 6, column: 9 },
        message: `${FILE}:6:9: mcpServers.fs.roots[0]: must not be empty (the project folder is ".")`,
      },
    ]);
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
      skipped: [],
      warnings: [],
    });
  });

  it("returns the ConfigError of a file that is not JSON", async () => {
    const file = join(directory(), "bad.json");
    await writeFile(file, '{"mcpServers": {"notes": {"command": "node"}');
    const error = await loadMcpConfig(file, {});
    expect(error).toBeInstanceOf(ConfigError);
    expect(error).toMatchObject({ file, path: "", position: { line: 1, column: 45 } });
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

describe("parseMcpConfig with limits on a server's tools", () => {
  it("keeps Gemini CLI's includeTools and excludeTools, Codex's enabled_tools and disabled_tools and Windsurf's disabledTools as one limit", () => {
    const text = JSON.stringify({
      mcpServers: {
        gemini: { command: "g", includeTools: ["read", "search", "write"], excludeTools: ["write"] },
        codex: { command: "c", enabled_tools: ["a", "b"], includeTools: ["b", "c"], disabled_tools: ["d"], disabledTools: ["e"] },
        copilot: { command: "p", tools: ["*"] },
        plain: { command: "x" },
      },
    });
    expect(configOf(text).toolLimits).toEqual(
      new Map([
        ["gemini", { include: ["read", "search", "write"], exclude: ["write"] }],
        ["codex", { include: ["b"], exclude: ["d", "e"] }],
        ["copilot", { include: ["*"], exclude: [] }],
      ]),
    );
  });

  it("skips a server with a field that looks like a limit mca does not know, at its place, instead of offering every tool", () => {
    expect(skippedErrorOf(oneServer("s", { command: "x", allowedTools: ["read"] }))).toMatchObject({
      path: "mcpServers.s.allowedTools",
      position: { line: 5, column: 7 },
      detail: expect.stringMatching(/^looks like a limit on this server's tools, and mca does not know it/),
    });
    expect(skippedErrorOf(oneServer("s", { command: "x", disabledPrompts: ["p"] }))).toMatchObject({ path: "mcpServers.s.disabledPrompts" });
    expect(skippedErrorOf(oneServer("s", { url: "http://a/", blocked_tools: ["p"] }))).toMatchObject({ path: "mcpServers.s.blocked_tools" });
  });

  it("skips a server whose limit is not a list of names", () => {
    expect(skippedErrorOf(oneServer("s", { command: "x", excludeTools: "search" }))).toMatchObject({ path: "mcpServers.s.excludeTools", detail: "must be a list of tool names" });
  });
});

describe("parseMcpConfig of other hosts' shapes", () => {
  it("reads VS Code's servers with their type, and asks nothing of a file without inputs", () => {
    const text = '{\n  // VS Code\n  "servers": {\n    "fs": { "type": "stdio", "command": "npx", "args": ["-y", "server-filesystem", "${workspaceFolder}"] },\n    "web": { "type": "http", "url": "https://example.com/mcp" },\n  },\n}';
    const config = parseMcpConfig(text, "/p/.vscode/mcp.json", {}, { projectDir: "/p", fromProject: false });
    expect(config).toEqual({
      file: "/p/.vscode/mcp.json",
      servers: [
        { alias: "fs", transport: "stdio", command: "npx", args: ["-y", "server-filesystem", "/p"], env: {}, enabled: true },
        { alias: "web", transport: "http", url: "https://example.com/mcp", headers: {}, enabled: true },
      ],
      skipped: [],
      warnings: [],
    });
    expect(neededInputs(text, "mcp.json")).toEqual([]);
  });

  it("stops on a file with both mcpServers and servers, at the second", () => {
    expect(errorOf('{"mcpServers": {}, "servers": {}}')).toMatchObject({ path: "servers", detail: 'write the servers in one of "mcpServers" and "servers"' });
  });

  it("expands Cursor's and VS Code's variables: ${env:NAME}, ${userHome}, ${workspaceFolder}, ${workspaceFolderBasename}, ${pathSeparator}", () => {
    const text = oneServer("s", { command: "${userHome}${pathSeparator}bin${/}tool", args: ["${workspaceFolder}", "${workspaceFolderBasename}"], env: { TOKEN: "${env:TOKEN}" } });
    const config = parseMcpConfig(text, "/work/app/.cursor/mcp.json", { HOME: "/home/u", TOKEN: "t" }, { projectDir: "/work/app", fromProject: false });
    expect(config instanceof ConfigError ? config.message : config.servers).toEqual([
      { alias: "s", transport: "stdio", command: "/home/u/bin/tool", args: ["/work/app", "app"], env: { TOKEN: "t" }, enabled: true },
    ]);
  });

  it("names the inputs the enabled entries use, and fills in their answers; without one the entry is skipped naming the input", () => {
    const text = JSON.stringify({
      inputs: [
        { type: "promptString", id: "api-key", description: "API key", password: true },
        { type: "promptString", id: "unused", description: "never used" },
      ],
      servers: {
        api: { type: "stdio", command: "api-server", env: { API_KEY: "${input:api-key}" } },
        off: { type: "stdio", command: "x", args: ["${input:unused}"], disabled: true },
      },
    });
    expect(neededInputs(text, "mcp.json")).toEqual([{ id: "api-key", description: "API key", password: true }]);
    const answered = parseMcpConfig(text, "mcp.json", {}, undefined, new Map([["api-key", "sk-typed"]]));
    expect(answered instanceof ConfigError ? answered.message : answered.servers[0]).toEqual({ alias: "api", transport: "stdio", command: "api-server", args: [], env: { API_KEY: "sk-typed" }, enabled: true });
    expect(noticesOf(text).skipped).toEqual([
      {
        alias: "api",
        message: 'mcp.config.json:1:230: servers.api.env.API_KEY: ${input:api-key} ("API key") is asked in a terminal when the server starts, and this run has none to ask in',
      },
    ]);
  });

  it("skips an entry naming an input the file does not declare", () => {
    expect(skippedErrorOf(oneServer("s", { command: "x", args: ["${input:nope}"] }))).toMatchObject({ detail: '${input:nope}: no input "nope" is declared in this file\'s "inputs"' });
  });

  it("reads Copilot's type local, Gemini CLI's timeout and a server's pidNamespace", () => {
    expect(configOf(oneServer("s", { type: "local", command: "x", timeout: 5000, pidNamespace: false })).servers).toEqual([
      { alias: "s", transport: "stdio", command: "x", args: [], env: {}, pidNamespace: false, timeoutMs: 5000, enabled: true },
    ]);
  });
});
