import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { loadRules, parseRuleFlags, parseSettings, settingsFiles } from "./settings.js";

const FILE = "/p/.mca/settings.json";

describe("settingsFiles", () => {
  it("reads the user file under XDG_CONFIG_HOME, then the project file", () => {
    expect(settingsFiles("/p", { XDG_CONFIG_HOME: "/x", HOME: "/h" })).toEqual(["/x/mca/settings.json", "/p/.mca/settings.json"]);
  });

  it("falls back to ~/.config when XDG_CONFIG_HOME is unset or empty", () => {
    expect(settingsFiles("/p", { XDG_CONFIG_HOME: "", HOME: "/h" })).toEqual(["/h/.config/mca/settings.json", "/p/.mca/settings.json"]);
  });
});

describe("parseSettings", () => {
  it("turns each permissions list into rules whose origin is the file", () => {
    const text = JSON.stringify({ model: "ignored", permissions: { allow: ["read_file", "bash(git status*)"], deny: ["bash(rm*)"], ask: ["mcp__*"] } });
    expect(parseSettings(text, FILE)).toEqual([
      { verdict: "allow", pattern: "read_file", origin: FILE },
      { verdict: "allow", pattern: "bash(git status*)", origin: FILE },
      { verdict: "deny", pattern: "bash(rm*)", origin: FILE },
      { verdict: "ask", pattern: "mcp__*", origin: FILE },
    ]);
  });

  it("accepts a file without permissions", () => {
    expect(parseSettings("{}", FILE)).toEqual([]);
  });

  it("names the file when the JSON is invalid", () => {
    const result = parseSettings("{ permissions: ", FILE);
    expect(result instanceof Error ? result.message : result).toMatch(/^\/p\/\.mca\/settings\.json: invalid JSON: /);
  });

  it("names the file and the entry of a malformed rule", () => {
    expect(parseSettings('{"permissions":{"deny":["bash", "bash(rm*"]}}', FILE)).toEqual(
      new Error(`${FILE}: permissions.deny[1]: missing ")" at the end of "bash(rm*"`),
    );
  });

  it("names the place of every shape error", () => {
    expect(parseSettings("[]", FILE)).toEqual(new Error(`${FILE}: must be a JSON object`));
    expect(parseSettings('{"permissions":[]}', FILE)).toEqual(new Error(`${FILE}: permissions: must be an object`));
    expect(parseSettings('{"permissions":{"alow":[]}}', FILE)).toEqual(
      new Error(`${FILE}: permissions.alow: unknown field (expected allow, ask or deny)`),
    );
    expect(parseSettings('{"permissions":{"allow":"read_file"}}', FILE)).toEqual(new Error(`${FILE}: permissions.allow: must be an array of rules`));
    expect(parseSettings('{"permissions":{"allow":[3]}}', FILE)).toEqual(new Error(`${FILE}: permissions.allow[0]: must be a string`));
  });
});

describe("parseRuleFlags", () => {
  it("gives each flag's rules the flag as origin", () => {
    expect(parseRuleFlags({ allow: ["write_file"], deny: ["bash(rm*)"] })).toEqual([
      { verdict: "allow", pattern: "write_file", origin: "--allow" },
      { verdict: "deny", pattern: "bash(rm*)", origin: "--deny" },
    ]);
  });

  it("names the flag and its value when a rule is malformed", () => {
    expect(parseRuleFlags({ allow: [], deny: ["rm -rf"] })).toEqual(
      new Error('--deny "rm -rf": invalid tool name pattern "rm -rf" (letters, digits, _ . - and the globs * ?)'),
    );
  });
});

describe("loadRules", () => {
  let dir = "";
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), "mca-settings-"));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("collects the rules of existing files and the flags, skipping missing files", async () => {
    const file = join(dir, "settings.json");
    await writeFile(file, '{"permissions":{"allow":["list_dir"]}}');
    expect(await loadRules([join(dir, "missing.json"), file], { allow: ["write_file"], deny: [] })).toEqual([
      { verdict: "allow", pattern: "list_dir", origin: file },
      { verdict: "allow", pattern: "write_file", origin: "--allow" },
    ]);
  });

  it("reports a settings path it cannot read as a file", async () => {
    const folder = join(dir, "settings.json");
    await mkdir(folder);
    const result = await loadRules([folder], { allow: [], deny: [] });
    expect(result instanceof Error ? result.message : result).toMatch(new RegExp(`^${folder}: cannot read settings: `));
  });
});
