import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ConfigError } from "./config-error.js";
import { loadMcpConfig } from "./load-mcp-config.js";

describe("loadMcpConfig", () => {
  let directory = "";

  beforeEach(async () => {
    directory = await mkdtemp(join(tmpdir(), "mca-config-"));
  });

  afterEach(async () => {
    await rm(directory, { recursive: true, force: true });
  });

  it("reads and validates the file, with the environment it is given", async () => {
    const file = join(directory, "mcp.config.json");
    await writeFile(file, '{"mcpServers": {"notes": {"command": "node", "args": ["${SCRIPT}"]}}}');
    expect(await loadMcpConfig(file, { SCRIPT: "notes.js" })).toEqual({
      file,
      servers: [{ alias: "notes", transport: "stdio", command: "node", args: ["notes.js"], env: {}, enabled: true }],
    });
  });

  it("rejects with the ConfigError of an invalid file", async () => {
    const file = join(directory, "bad.json");
    await writeFile(file, '{"mcpServers": {"notes": {"command": 1}}}');
    const error = await loadMcpConfig(file, {}).catch((reason: unknown) => reason);
    expect(error).toBeInstanceOf(ConfigError);
    expect(error).toMatchObject({ file, path: "mcpServers.notes.command", detail: "must be a string, not a number" });
  });

  it("rejects with a ConfigError naming a file that cannot be read", async () => {
    const file = join(directory, "missing.json");
    const error = await loadMcpConfig(file, {}).catch((reason: unknown) => reason);
    expect(error).toBeInstanceOf(ConfigError);
    expect(error).toMatchObject({ file, path: "" });
    expect(error instanceof ConfigError && error.detail).toMatch(/^cannot read the file: ENOENT/);
  });
});
