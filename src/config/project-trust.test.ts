import { execFileSync } from "node:child_process";
import { mkdir, readFile, stat, truncate, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempProjectPerTest } from "../tools/test-support/temp-project.js";
import { ConfigError } from "./config-reader.js";
import { MAX_HASHED_PROGRAM_BYTES, projectTrust, recordTrust, trustStoreFile, type ProjectFiles } from "./project-trust.js";

describe("project trust", () => {
  const root = tempProjectPerTest("mca-trust-");
  const env = (): Record<string, string> => ({ XDG_CONFIG_HOME: join(root(), "config"), HOME: join(root(), "home") });
  const project = async (): Promise<string> => {
    const dir = join(root(), "project");
    await mkdir(join(dir, ".mca"), { recursive: true });
    return dir;
  };

  it("has nothing to trust in a folder without its own files", async () => {
    expect(projectTrust(await project(), env())).toEqual({ kind: "no-project-files" });
  });

  it("is untrusted until recorded, trusted for exactly those contents, and asks again when a file changes", async () => {
    const dir = await project();
    await writeFile(join(dir, "mcp.config.json"), '{"mcpServers":{}}');
    const first = projectTrust(dir, env());
    if (first instanceof ConfigError || first.kind !== "untrusted") throw new Error(`expected untrusted, got ${JSON.stringify(first)}`);
    expect(first.changed).toBe(false);
    expect(await recordTrust(first.files, env(), new Date(0))).toBeUndefined();
    expect((projectTrust(dir, env()))).toMatchObject({ kind: "trusted" });

    // A settings file appearing is a change too: trust covers the set of files, not only their bytes.
    await writeFile(join(dir, ".mca", "settings.json"), '{"permissions":{"allow":["bash"]}}');
    expect(projectTrust(dir, env())).toMatchObject({ kind: "untrusted", changed: true });
  });

  it("covers Claude Code's .mcp.json: a folder trusted before it had one asks again once it appears, and its programs are hashed", async () => {
    const dir = await project();
    await writeFile(join(dir, "mcp.config.json"), '{"mcpServers":{}}');
    const first = projectTrust(dir, env());
    if (first instanceof ConfigError || first.kind !== "untrusted") throw new Error(`expected untrusted, got ${JSON.stringify(first)}`);
    expect(await recordTrust(first.files, env(), new Date(0))).toBeUndefined();
    await writeFile(join(dir, "server.js"), "// the server\n");
    await writeFile(join(dir, ".mcp.json"), JSON.stringify({ mcpServers: { mine: { command: "node", args: ["server.js"] } } }));
    const state = projectTrust(dir, env());
    expect(state).toMatchObject({ kind: "untrusted", changed: true });
    if (state instanceof ConfigError || state.kind !== "untrusted") return;
    expect(state.files.programs).toEqual([{ alias: "mine", path: "server.js", hashed: true }]);
    expect([...state.files.texts.keys()].map((file) => file.slice(state.files.projectDir.length + 1))).toEqual(["mcp.config.json", ".mcp.json"]);
  });

  it("keeps the hash of a folder without .mcp.json as it was before .mcp.json was read (sha-256 over the first two files alone)", async () => {
    const dir = await project();
    const text = '{"mcpServers":{}}';
    await writeFile(join(dir, "mcp.config.json"), text);
    const state = projectTrust(dir, env());
    if (state instanceof ConfigError || state.kind !== "untrusted") throw new Error(`expected untrusted, got ${JSON.stringify(state)}`);
    const { createHash } = await import("node:crypto");
    const before = createHash("sha256").update(`mcp.config.json\0${text.length}\0`).update(text).update(`${join(".mca", "settings.json")}\0absent\0`).digest("hex");
    expect(state.files.hash).toBe(before);
  });

  const untrustedFiles = (dir: string): ProjectFiles => {
    const state = projectTrust(dir, env());
    if (state instanceof ConfigError || state.kind !== "untrusted") throw new Error(`expected untrusted, got ${JSON.stringify(state)}`);
    return state.files;
  };

  it("hashes the project files a stdio server runs, so a change to one asks again", async () => {
    const dir = await project();
    await mkdir(join(dir, "tools"));
    await writeFile(join(dir, "tools", "server.sh"), "#!/bin/sh\nexec node server.js\n");
    await writeFile(join(dir, "tools", "server.js"), "// the server\n");
    await writeFile(join(root(), "outside.js"), "// not the project's\n");
    execFileSync("mkfifo", [join(dir, "tools", "pipe")]);
    const config = {
      mcpServers: {
        // A command with a slash is a path, found from the server's cwd; arguments that name regular files inside the project are hashed too.
        script: { command: "./server.sh", args: ["-v", "server.js", "pipe", "../../outside.js", "${HOME}"], cwd: "tools" },
        // A bare command is looked up on PATH, not in the project.
        node: { command: "server.sh", args: [join(dir, "tools", "server.js")], cwd: "tools" },
        off: { command: "./tools/server.sh", enabled: false },
        remote: { url: "http://127.0.0.1:9/mcp" },
      },
    };
    await writeFile(join(dir, "mcp.config.json"), JSON.stringify(config));
    const files = untrustedFiles(dir);
    expect(files.programs).toEqual([
      { alias: "script", path: join("tools", "server.sh"), hashed: true },
      { alias: "script", path: join("tools", "server.js"), hashed: true },
      { alias: "node", path: join("tools", "server.js"), hashed: true },
    ]);
    await recordTrust(files, env(), new Date(0));
    expect(projectTrust(dir, env())).toMatchObject({ kind: "trusted" });

    await writeFile(join(dir, "tools", "server.js"), "// the server, changed\n");
    expect(projectTrust(dir, env())).toMatchObject({ kind: "untrusted", changed: true });
  });

  it("lists a file too large to hash, without reading it, and hashes the rest", async () => {
    const dir = await project();
    await writeFile(join(dir, "big.js"), "");
    await truncate(join(dir, "big.js"), MAX_HASHED_PROGRAM_BYTES + 1);
    await writeFile(join(dir, "small.js"), "1");
    await writeFile(join(dir, "mcp.config.json"), JSON.stringify({ mcpServers: { s: { command: "node", args: ["big.js", "small.js"] } } }));
    expect(untrustedFiles(dir).programs).toEqual([
      { alias: "s", path: "small.js", hashed: true },
      { alias: "s", path: "big.js", hashed: false },
    ]);
  });

  it("hashes the command and the small arguments first: large data files named before a script cannot spend its budget", async () => {
    const dir = await project();
    for (const name of ["data-1.bin", "data-2.bin"]) {
      await writeFile(join(dir, name), "");
      await truncate(join(dir, name), MAX_HASHED_PROGRAM_BYTES / 2 + 1);
    }
    await writeFile(join(dir, "server.js"), "// the server\n");
    await writeFile(join(dir, "mcp.config.json"), JSON.stringify({ mcpServers: { s: { command: "node", args: ["data-1.bin", "data-2.bin", "server.js"] } } }));
    expect(untrustedFiles(dir).programs).toEqual([
      { alias: "s", path: "server.js", hashed: true },
      { alias: "s", path: "data-1.bin", hashed: true },
      { alias: "s", path: "data-2.bin", hashed: false },
    ]);
  });

  it("keeps the record in the user's config folder, readable by the user only, never in the project", async () => {
    const dir = await project();
    await writeFile(join(dir, "mcp.config.json"), "{}");
    const state = projectTrust(dir, env());
    if (state instanceof ConfigError || state.kind === "no-project-files") throw new Error("expected project files");
    await recordTrust(state.files, env(), new Date(0));
    const store = trustStoreFile(env());
    expect(store).toBe(join(root(), "config", "mca", "trusted-projects.json"));
    expect((await stat(store)).mode & 0o777).toBe(0o600);
    expect(JSON.parse(await readFile(store, "utf8"))).toEqual({
      projects: { [state.files.projectDir]: { sha256: state.files.hash, trustedAt: "1970-01-01T00:00:00.000Z" } },
    });
  });

  it("reports a broken store by its file instead of trusting anything", async () => {
    const dir = await project();
    await writeFile(join(dir, "mcp.config.json"), "{}");
    await mkdir(join(root(), "config", "mca"), { recursive: true });
    await writeFile(trustStoreFile(env()), "{ not json");
    const state = projectTrust(dir, env());
    expect(state).toBeInstanceOf(ConfigError);
    expect(state instanceof Error ? state.message : "").toMatch(/trusted-projects\.json:1:3: invalid JSON/);
  });
});
