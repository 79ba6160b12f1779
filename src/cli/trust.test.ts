import { existsSync, realpathSync } from "node:fs";
import { execFileSync } from "node:child_process";
import { mkdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createScriptedAsker } from "./test-support/scripted-asker.js";
import { createTempProject, type TempProject } from "./test-support/run-cli.js";
import { runTrustCommand, settleProjectTrust } from "./trust.js";
import { readConfiguredServerFiles, type MountDeps } from "./mcp-servers.js";
import type { Choice } from "./terminal.js";

const NOT_APPLIED = "its MCP servers are not started, and its allow rules and other settings that widen (sandbox, toolSearch, …) are not applied";

// A server whose only act is to leave a mark that it was started; it then fails at once.
const MARKING_SERVER = { command: "sh", args: ["-c", "touch STARTED; exit 1 # \u009b2J"] };
const SECRET = "s3cr3t-header-value";
const CONFIG = JSON.stringify({
  mcpServers: {
    marker: MARKING_SERVER,
    remote: { type: "http", url: "http://127.0.0.1:9/mcp", headers: { Authorization: "Bearer ${SECRET_TOKEN}" } },
  },
});

/** The run's servers alone: null when none is configured. */
async function configuredServers(deps: MountDeps) {
  const read = await readConfiguredServerFiles(deps);
  return read instanceof Error ? read : read.config;
}

describe("a cloned repository's own files", () => {
  let project: TempProject;
  beforeEach(async () => {
    project = await createTempProject();
    await writeFile(join(project.dir, "mcp.config.json"), CONFIG);
    await mkdir(join(project.dir, ".mca"));
    await writeFile(join(project.dir, ".mca", "settings.json"), JSON.stringify({ permissions: { allow: ["bash"], deny: ["list_dir"] } }));
  });
  afterEach(() => project.remove());
  const env = { MOCK: "1", SECRET_TOKEN: SECRET };
  const started = (): boolean => existsSync(join(project.dir, "STARTED"));

  it("start nothing and allow nothing until trusted, and say in one line how to trust them", async () => {
    const tools = await project.run(["tools"], "", env);
    expect(tools.code).toBe(0);
    expect(started()).toBe(false);
    const notices = tools.stderr.split("\n").filter((line) => line.includes("not trusted"));
    expect(notices).toHaveLength(1);
    expect(notices[0]).toContain("mca trust");
    expect(notices[0]).toContain("--trust-project");

    const call = await project.run(["call", "bash", JSON.stringify({ command: "touch RAN" })], "", env);
    expect(call.code).not.toBe(0);
    expect(existsSync(join(project.dir, "RAN"))).toBe(false);
    // Its deny rules apply all the same: they can only tighten.
    const listed = await project.run(["call", "list_dir", "{}"], "", env);
    expect(listed.stdout + listed.stderr).toMatch(/deny|denied/i);
  });

  it("take effect for one run with --trust-project, recording nothing", async () => {
    const call = await project.run(["--trust-project", "call", "bash", JSON.stringify({ command: "touch RAN" })], "", env);
    expect(call.code).toBe(0);
    expect(started()).toBe(true);
    expect(existsSync(join(project.dir, "RAN"))).toBe(true);
    expect(existsSync(join(project.home, ".config", "mca", "trusted-projects.json"))).toBe(false);
  });

  it("are shown by `mca trust` (header templates, never values; hostile bytes visible) and then apply until they change", async () => {
    const trust = await project.run(["trust"], "", env);
    expect(trust.code).toBe(0);
    expect(started()).toBe(false);
    expect(trust.stdout).toContain('marker (stdio): "sh" "-c" "touch STARTED; exit 1 # \\u009b2J"');
    expect(trust.stdout).toContain('remote (http): "http://127.0.0.1:9/mcp"\n      header Authorization: "Bearer ${SECRET_TOKEN}"\n');
    expect(trust.stdout).toContain("would allow without asking these calls:\n    bash\n");
    expect(trust.stdout).not.toContain(SECRET);
    expect(trust.stdout).not.toContain("\u009b");

    await project.run(["tools"], "", env);
    expect(started()).toBe(true);

    await writeFile(join(project.dir, "mcp.config.json"), CONFIG.replace("STARTED", "STARTED2"));
    const changed = await project.run(["tools"], "", env);
    expect(changed.stderr).toContain("changed since you trusted it");
    expect(existsSync(join(project.dir, "STARTED2"))).toBe(false);
  });

  it("never hang mca when the repository commits a named pipe under a config file's name", async () => {
    await rm(join(project.dir, "mcp.config.json"));
    execFileSync("mkfifo", [join(project.dir, "mcp.config.json")]);
    const tools = await project.run(["tools"], "", env);
    expect(tools.code).toBe(0);
    const trusted = await project.run(["--trust-project", "tools"], "", env);
    expect(trusted.code).toBe(2);
    expect(trusted.stderr).toContain("mcp.config.json: cannot read the file: not a regular file");
  });

  it("are not needed for a config the user names on the command line", async () => {
    await writeFile(join(project.dir, "mine.json"), JSON.stringify({ mcpServers: { marker: MARKING_SERVER } }));
    const tools = await project.run(["--mcp-config", "mine.json", "tools"], "", env);
    expect(started()).toBe(true);
    // The project's settings are still untrusted: one line says so.
    expect(tools.stderr).toContain("not trusted");
  });
});

describe("the chat's trust question", () => {
  let project: TempProject;
  beforeEach(async () => {
    project = await createTempProject();
    await writeFile(join(project.dir, "mcp.config.json"), CONFIG);
  });
  afterEach(() => project.remove());
  const deps = (answer: string | undefined, warnings: string[]) => ({
    projectDir: project.dir,
    env: { XDG_CONFIG_HOME: join(project.home, ".config"), SECRET_TOKEN: SECRET },
    mcpConfigFlag: undefined,
    trustFlag: false,
    asker: createScriptedAsker([answer]),
    warn: (line: string) => warnings.push(line),
    now: () => new Date(0),
  });

  it("shows what would start, and remembers a yes for these contents", async () => {
    const first = deps("remember", []);
    expect(await settleProjectTrust(first)).toMatchObject({ trusted: true });
    const said = first.asker.transcript.join("\n");
    expect(said).toContain("marker (stdio)");
    expect(said).toContain('header Authorization: "Bearer ${SECRET_TOKEN}"');
    expect(said).not.toContain(SECRET);
    // Asked once: the next run is trusted without a question (an empty script would throw if asked).
    const again = { ...deps(undefined, []), asker: createScriptedAsker([]) };
    expect(await settleProjectTrust(again)).toMatchObject({ trusted: true });
  });

  it("shows the project's servers even when --mcp-config replaces them in this run, since the trust it records covers them", async () => {
    const asked = deps("remember", []);
    expect(await settleProjectTrust({ ...asked, mcpConfigFlag: "mine.json" })).toMatchObject({ trusted: true });
    const said = asked.asker.transcript.join("\n");
    expect(said).toContain("would start these MCP servers (not in this run: --mcp-config replaces it):");
    expect(said).toContain("marker (stdio)");
  });

  it("hands on the files as they were shown, so one changed while the user decided is not what takes effect", async () => {
    const asker = createScriptedAsker(["session"]);
    const changingAsker = {
      ...asker,
      async select<T extends string>(message: string, choices: readonly Choice<T>[], initial?: number): Promise<T | undefined> {
        await writeFile(join(project.dir, "mcp.config.json"), JSON.stringify({ mcpServers: { swapped: { command: "/bin/sh", args: ["-c", "evil"] } } }));
        return asker.select(message, choices, initial);
      },
    };
    const settled = await settleProjectTrust({ ...deps(undefined, []), asker: changingAsker });
    if (settled instanceof Error) throw settled;
    expect(settled.trusted).toBe(true);
    const config = await configuredServers({ projectDir: project.dir, configPaths: [], project: settled, env: { SECRET_TOKEN: SECRET }, clientVersion: "0", warn: () => undefined });
    expect(config instanceof Error || config === null ? config : config.servers.map((server) => server.alias)).toEqual(["marker", "remote"]);
  });

  it("starts without the project's files on a no or a Ctrl-C, and asks again next time", async () => {
    for (const answer of ["no", undefined]) {
      const warnings: string[] = [];
      expect(await settleProjectTrust(deps(answer, warnings))).toMatchObject({ trusted: false });
      expect(warnings.join("\n")).toContain("not trusted");
    }
  });
});

describe("what the trust question shows", () => {
  let project: TempProject;
  beforeEach(async () => {
    project = await createTempProject();
  });
  afterEach(() => project.remove());
  const store = (): string => join(project.home, ".config", "mca", "trusted-projects.json");
  const TICKETS = JSON.stringify({ mcpServers: { tickets: { type: "http", url: "http://127.0.0.1:${TICKETS_PORT}/mcp" } } });
  const env = (extra: Record<string, string>) => ({ XDG_CONFIG_HOME: join(project.home, ".config"), ...extra });
  const trustCommand = async (extra: Record<string, string>) => {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runTrustCommand({ projectDir: project.dir, env: env(extra), out: (text) => out.push(text), err: (text) => err.push(text), now: () => new Date(0) });
    return { code, out: out.join(""), err: err.join("") };
  };

  it("is every template as written, cwd, inheritEnv, the project files a server runs and the credentials its templates name", async () => {
    await mkdir(join(project.dir, "tools"));
    await writeFile(join(project.dir, "tools", "server.sh"), "#!/bin/sh\n");
    await mkdir(join(project.dir, ".mca"));
    await writeFile(join(project.dir, ".mca", "settings.json"), JSON.stringify({ permissions: { allow: ["bash"], deny: ["list_dir"] } }));
    const config = {
      mcpServers: {
        local: {
          command: "./server.sh",
          args: ["--verbose"],
          cwd: "tools",
          inheritEnv: true,
          env: { API: "${ANTHROPIC_API_KEY}", "MODE\u009b": "fast" },
        },
        tickets: {
          url: "http://127.0.0.1:${TICKETS_PORT}/mcp",
          headers: { Authorization: "Bearer ${GITHUB_TOKEN}", "X-Port": "${TICKETS_PORT}" },
          oauth: { clientId: "mca", scopes: ["read"], issuer: "https://auth.example.com" },
        },
        off: { command: "evil", enabled: false },
        robot: { url: "https://mcp.example.com/mcp", oauth: { clientId: "bot", grant: "jwt_bearer", assertionFile: "/var/run/token", dpopKeyFile: "/keys/dpop.pem" } },
      },
    };
    await writeFile(join(project.dir, "mcp.config.json"), JSON.stringify(config));
    const trust = await trustCommand({ ANTHROPIC_API_KEY: "sk-ant-s3cret", GITHUB_TOKEN: "ghp_s3cret", TICKETS_PORT: "4000" });
    expect(trust).toEqual({
      code: 0,
      out: [
        `This folder has its own mca configuration: ${realpathSync(project.dir)}`,
        "  mcp.config.json would start these MCP servers:",
        '    local (stdio): "./server.sh" "--verbose"',
        '      cwd: "tools"',
        "      inheritEnv: true (it gets your whole environment, the model's keys excepted)",
        '      env API="${ANTHROPIC_API_KEY}"',
        '      env MODE\\u009b="fast"',
        '      runs from the project, hashed (a change asks again): "tools/server.sh"',
        "      warning: hands this server your credentials: ANTHROPIC_API_KEY",
        '    tickets (http): "http://127.0.0.1:${TICKETS_PORT}/mcp"',
        '      header Authorization: "Bearer ${GITHUB_TOKEN}"',
        '      header X-Port: "${TICKETS_PORT}"',
        '      oauth: clientId "mca", issuer "https://auth.example.com", scopes "read"',
        "      warning: hands this server your credentials: GITHUB_TOKEN",
        '    robot (http): "https://mcp.example.com/mcp"',
        '      oauth: clientId "bot", grant "jwt_bearer", assertionFile "/var/run/token", dpopKeyFile "/keys/dpop.pem"',
        "  .mca/settings.json would allow without asking these calls:",
        "    bash",
        "  (its deny and ask rules apply whether or not you trust it)",
        "trusted: these files take effect until they change",
        "",
      ].join("\n"),
      err: "",
    });

    // The script is in the trust: a change to it asks again.
    await writeFile(join(project.dir, "tools", "server.sh"), "#!/bin/sh\ncurl evil\n");
    const changed = await project.run(["tools"], "", { MOCK: "1", ANTHROPIC_API_KEY: "x", GITHUB_TOKEN: "x", TICKETS_PORT: "4000" });
    expect(changed.stderr).toContain("changed since you trusted it");
  });

  it("offers a URL with a ${VAR} port as written, and the run gets it expanded", async () => {
    await writeFile(join(project.dir, "mcp.config.json"), TICKETS);
    const asker = createScriptedAsker(["remember"]);
    const warnings: string[] = [];
    const deps = { projectDir: project.dir, env: env({ TICKETS_PORT: "4000" }), mcpConfigFlag: undefined, trustFlag: false, asker, warn: (line: string) => warnings.push(line), now: () => new Date(0) };
    const settled = await settleProjectTrust(deps);
    expect(asker.transcript).toEqual([
      [
        `say: This folder has its own mca configuration: ${realpathSync(project.dir)}`,
        "  mcp.config.json would start these MCP servers:",
        '    tickets (http): "http://127.0.0.1:${TICKETS_PORT}/mcp"',
      ].join("\n"),
      "select: Trust this folder? [remember|session|no]",
    ]);
    expect(warnings).toEqual([]);
    if (settled instanceof Error) throw settled;
    const config = await configuredServers({ projectDir: project.dir, configPaths: [], project: settled, env: { TICKETS_PORT: "4000" }, clientVersion: "0", warn: () => undefined });
    expect(config instanceof Error || config === null ? config : config.servers.map((server) => server.transport === "http" && server.url)).toEqual(["http://127.0.0.1:4000/mcp"]);
  });

  it("offers no trust and records nothing for a config that cannot be read", async () => {
    await writeFile(join(project.dir, "mcp.config.json"), TICKETS);
    const reason = `${realpathSync(project.dir)}/mcp.config.json:1:47: mcpServers.tickets.url: variable TICKETS_PORT is not set`;
    const notOffered = `${realpathSync(project.dir)} is not offered for trust until its files can be read (${reason})`;
    const warnings: string[] = [];
    // An empty script throws if anything is asked.
    const deps = { projectDir: project.dir, env: env({}), mcpConfigFlag: undefined, trustFlag: false, asker: createScriptedAsker([]), warn: (line: string) => warnings.push(line), now: () => new Date(0) };
    expect(await settleProjectTrust(deps)).toMatchObject({ trusted: false });
    expect(warnings).toEqual([`mca: ${notOffered}: ${NOT_APPLIED}`]);

    expect(await trustCommand({})).toEqual({
      code: 1,
      out: `This folder has its own mca configuration: ${realpathSync(project.dir)}\n  mcp.config.json cannot be read: ${reason}\n`,
      err: `mca: ${notOffered}; nothing is recorded\n`,
    });
    expect(existsSync(store())).toBe(false);
  });
});

describe("a project's .mca/settings.json", () => {
  let project: TempProject;
  beforeEach(async () => {
    project = await createTempProject();
    await mkdir(join(project.dir, ".mca"));
  });
  afterEach(() => project.remove());
  const settings = (value: unknown): Promise<void> => writeFile(join(project.dir, ".mca", "settings.json"), JSON.stringify(value));
  const settle = async (answers: readonly (string | undefined)[] | "no terminal") => {
    const warnings: string[] = [];
    const asker = answers === "no terminal" ? undefined : createScriptedAsker([...answers]);
    const settled = await settleProjectTrust({
      projectDir: project.dir,
      env: { XDG_CONFIG_HOME: join(project.home, ".config") },
      mcpConfigFlag: undefined,
      trustFlag: false,
      asker,
      warn: (line) => warnings.push(line),
      now: () => new Date(0),
    });
    return { trusted: settled instanceof Error ? settled.message : settled.trusted, said: asker?.transcript ?? [], warnings };
  };
  const header = (): string => `say: This folder has its own mca configuration: ${realpathSync(project.dir)}`;

  it("asks about a file that only widens the sandbox, showing each key with its value", async () => {
    await settings({ sandbox: { writable: ["~"], network: true } });
    expect(await settle(["no"])).toEqual({
      trusted: false,
      said: [
        [
          header(),
          "  .mca/settings.json would allow without asking nothing",
          "  .mca/settings.json would set:",
          '    sandbox.writable: ["~"]',
          "    sandbox.network: true",
          "  (its deny and ask rules apply whether or not you trust it)",
        ].join("\n"),
        "select: Trust this folder? [remember|session|no]",
      ],
      warnings: ["mca: not trusted: starting without the project's MCP servers, allow rules and other settings that widen"],
    });
  });

  it("asks about tool search and about a key this mca does not know", async () => {
    await settings({ toolSearch: "never", maxTurns: 500, fastMode: true });
    const settled = await settle(["session"]);
    expect(settled.trusted).toBe(true);
    expect(settled.said[0]?.split("\n").slice(2, 6)).toEqual([
      "  .mca/settings.json would set:",
      '    toolSearch: "never"',
      "    maxTurns: 500",
      "    fastMode: true (a key this mca does not know: it counts as widening)",
    ]);
  });

  it("without a terminal is not trusted when anything widens, and says so in one line", async () => {
    await settings({ sandbox: { enabled: false } });
    expect(await settle("no terminal")).toEqual({
      trusted: false,
      said: [],
      warnings: [`mca: ${realpathSync(project.dir)} is not trusted: ${NOT_APPLIED}; review and trust it with \`mca trust\`, or pass --trust-project for this run`],
    });
  });

  it("settles without a question when it holds only deny and ask rules", async () => {
    await settings({ permissions: { deny: ["bash(rm*)"], ask: ["write_file"], allow: [] } });
    // An empty script throws if anything is asked.
    expect(await settle([])).toEqual({ trusted: true, said: [], warnings: [] });
  });

  it("shows a long value cut, and hostile bytes in keys and values as escapes", async () => {
    await settings({ sandbox: { writable: ["x".repeat(300)] }, "evil\u009b2J": "\u202eval" });
    const lines = (await settle(["no"])).said[0]?.split("\n") ?? [];
    expect(lines.slice(3, 5)).toEqual([
      `    sandbox.writable: ["${"x".repeat(198)}… (304 characters)`,
      '    ["evil\\u009b2J"]: "\\u202eval" (a key this mca does not know: it counts as widening)',
    ]);
  });

  it("is not offered when one of its sections cannot be read", async () => {
    await settings({ sandbox: { network: "yes" } });
    const settled = await settle([]);
    expect(settled.trusted).toBe(false);
    expect(settled.warnings).toEqual([
      `mca: ${realpathSync(project.dir)} is not offered for trust until its files can be read (${realpathSync(project.dir)}/.mca/settings.json:1:23: sandbox.network: must be true or false, not a string): ${NOT_APPLIED}`,
    ]);
  });
});
