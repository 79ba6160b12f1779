import { mkdir, readFile, writeFile } from "node:fs/promises";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { Rule } from "../kernel/index.js";
import { tempProjectPerTest } from "../tools/test-support/temp-project.js";
import { readConfigJson } from "./config-reader.js";
import {
  classifySettings,
  loadRules,
  loadSandboxSettings,
  loadToolSearch,
  parseMcpSettings,
  parseRuleFlags,
  parseSandboxSettings,
  parseSettings,
  parseToolSearch,
  readUserSettings,
  SETTINGS_KEYS,
  loadPromptLimits,
  parsePromptLimits,
  settingsAsWritten,
  userSettingsFile,
  type ClassifiedSetting,
  type KeyClass,
  type ProjectSettings,
} from "./settings.js";

const FILE = "/p/.mca/settings.json";

/** Rules as the user wrote them (their patterns are compiled), or the error's message. */
function written(result: readonly Rule[] | Error): unknown {
  if (result instanceof Error) return result.message;
  return result.map(({ verdict, pattern, origin }) => ({ verdict, pattern: pattern.text, origin }));
}

describe("userSettingsFile", () => {
  it("is under XDG_CONFIG_HOME", () => {
    expect(userSettingsFile({ XDG_CONFIG_HOME: "/x", HOME: "/h" })).toBe("/x/mca/settings.json");
  });

  it("falls back to ~/.config when XDG_CONFIG_HOME is unset or empty", () => {
    expect(userSettingsFile({ XDG_CONFIG_HOME: "", HOME: "/h" })).toBe("/h/.config/mca/settings.json");
  });
});

/**
 * Every key a settings file may hold, with its class and a value its reader accepts. A key added to
 * SETTINGS_KEYS without a row here fails, and so does one a reader accepts without a class in the table.
 */
const EVERY_KEY: ReadonlyArray<readonly [path: string, keyClass: KeyClass, value: unknown]> = [
  ["permissions.allow", "widens", ["bash"]],
  ["permissions.ask", "narrows", ["read_file"]],
  ["permissions.deny", "narrows", ["bash(rm*)"]],
  ["sandbox.enabled", "widens", false],
  ["sandbox.network", "widens", true],
  ["sandbox.writable", "widens", ["~"]],
  ["mcp.maxToolsPerServer", "widens", 5000],
  ["toolSearch", "widens", "never"],
  ["maxTurns", "widens", 40],
  ["maxBudgetUsd", "widens", 2.5],
];

/** A settings file's object holding `value` at `path` (`sandbox.writable`). */
function settingsWith(entries: ReadonlyArray<readonly [string, unknown]>): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  const sections = new Map<string, Record<string, unknown>>();
  for (const [path, value] of entries) {
    const [key = "", field] = path.split(".");
    if (field === undefined) {
      root[key] = value;
      continue;
    }
    const section = sections.get(key) ?? {};
    section[field] = value;
    sections.set(key, section);
    root[key] = section;
  }
  return root;
}

function classified(text: string): ClassifiedSetting[] | Error {
  const root = readConfigJson(text, FILE);
  if (root instanceof Error) return root;
  return root.kind === "object" ? classifySettings(root) : new Error("not an object");
}

/** Each section's fields as its reader accepts them, learnt from the reader's own refusal of a field no one would name. */
function acceptedFields(section: string): string[] {
  const text = JSON.stringify({ [section]: { "probe\u0000": 1 } });
  const readers = [parseSettings(text, FILE), parseSandboxSettings(text, FILE, { home: "/h", projectDir: "/p" }), parseMcpSettings(text, FILE)];
  const refusal = readers.map((read) => (read instanceof Error ? /\(expected one of: ([^)]*)\)/.exec(read.message)?.[1] : undefined)).find((found) => found !== undefined);
  return refusal === undefined ? [] : refusal.split(", ");
}

describe("SETTINGS_KEYS", () => {
  it("classifies every key a settings file may hold", () => {
    const table = Object.entries(SETTINGS_KEYS).flatMap(([key, row]) =>
      typeof row === "string" ? [[key, row]] : Object.entries(row).map(([field, fieldClass]) => [`${key}.${field}`, fieldClass]),
    );
    expect(table).toEqual(EVERY_KEY.map(([path, keyClass]) => [path, keyClass]));
  });

  it("is where each section's reader takes the fields it accepts", () => {
    for (const section of ["permissions", "sandbox", "mcp"]) {
      expect({ section, fields: acceptedFields(section) }).toEqual({ section, fields: EVERY_KEY.filter(([path]) => path.startsWith(`${section}.`)).map(([path]) => path.slice(section.length + 1)) });
    }
  });

  it("is where the readers take every key they read by name", () => {
    // A reader names a field of a section in optionalField (its section's unknown fields are rejected from the
    // table), and a top-level key only through settingsField, whose parameter is the table's keys.
    const source = readFileSync(new URL("./settings.ts", import.meta.url), "utf8");
    const named = [...source.matchAll(/optionalField\(\w+, "([^"]+)"\)/g)].map((match) => match[1]);
    const fields = EVERY_KEY.map(([path]) => path.split(".")[1]);
    expect(named.filter((name) => !fields.includes(name))).toEqual([]);
    expect(named.length).toBeGreaterThan(0);
  });

  it("accepts every key of the table with its value, and classifies each as the table says", () => {
    const text = JSON.stringify(settingsWith(EVERY_KEY.map(([path, , value]) => [path, value])));
    expect(settingsAsWritten(text, FILE)).not.toBeInstanceOf(Error);
    expect(classified(text)).toEqual(EVERY_KEY.map(([path, keyClass, value]) => ({ path, class: keyClass, known: true, value: JSON.stringify(value) })));
  });

  it("counts a key it does not know as widening, at the top level and in a section", () => {
    const text = '{"fastMode":true,"model":"claude-x","env":{"A":"b"},"sandbox":{"netwrk":true},"permissions":"all"}';
    expect(classified(text)).toEqual([
      { path: "fastMode", class: "widens", known: false, value: "true" },
      { path: "model", class: "widens", known: false, value: '"claude-x"' },
      { path: "env", class: "widens", known: false, value: '{"A":"b"}' },
      { path: "sandbox.netwrk", class: "widens", known: false, value: "true" },
      { path: "permissions", class: "widens", known: true, value: '"all"' },
    ]);
  });
});

describe("loadPromptLimits", () => {
  const user = (text: string) => ({ path: "/u/settings.json", text });
  const project = (text: string, trusted: boolean) => ({ read: { path: FILE, text }, trusted });

  it("has no limit where no file sets one", () => {
    expect(loadPromptLimits(null, { read: null, trusted: true })).toEqual({});
  });

  it("takes the user's limits, and a trusted project's over them field by field", () => {
    expect(loadPromptLimits(user('{"maxTurns":40,"maxBudgetUsd":5}'), project('{"maxTurns":80}', true))).toEqual({ maxTurns: 80, maxBudgetUsd: 5 });
  });

  it("ignores an untrusted project's limits but still checks them", () => {
    expect(loadPromptLimits(user('{"maxTurns":40}'), project('{"maxTurns":800}', false))).toEqual({ maxTurns: 40 });
    expect(String(loadPromptLimits(null, project('{"maxTurns":0}', false)))).toBe(`ConfigError: ${FILE}:1:13: maxTurns: must be a positive integer (model turns)`);
  });

  it("refuses a budget that is not a positive number, naming the place", () => {
    expect(String(parsePromptLimits('{"maxBudgetUsd":"1"}', FILE))).toBe(`ConfigError: ${FILE}:1:17: maxBudgetUsd: must be a positive number (US dollars)`);
    expect(parsePromptLimits('{"maxBudgetUsd":0.25}', FILE)).toEqual({ maxBudgetUsd: 0.25 });
  });
});

describe("settingsAsWritten", () => {
  it("gives the allow rules and every other widening key; deny and ask rules are neither", () => {
    const text = JSON.stringify({ permissions: { deny: ["bash(rm*)"], allow: ["bash"], ask: ["mcp__*"] }, sandbox: { writable: ["~"] }, toolSearch: "never", fastMode: true });
    const read = settingsAsWritten(text, FILE);
    expect(read instanceof Error ? read.message : { allows: written(read.allows), widening: read.widening }).toEqual({
      allows: [{ verdict: "allow", pattern: "bash", origin: FILE }],
      widening: [
        { path: "sandbox.writable", class: "widens", known: true, value: '["~"]' },
        { path: "toolSearch", class: "widens", known: true, value: '"never"' },
        { path: "fastMode", class: "widens", known: false, value: "true" },
      ],
    });
  });

  it("finds nothing that widens in a file of deny and ask rules", () => {
    const read = settingsAsWritten('{"permissions":{"deny":["bash"],"ask":["write_file"],"allow":[]}}', FILE);
    expect(read instanceof Error ? read.message : { allows: read.allows, widening: read.widening }).toEqual({ allows: [], widening: [] });
  });

  it("is the first error of any reader: a file mca would refuse at start is not one to show", () => {
    expect(String(settingsAsWritten('{"sandbox":{"network":1}}', FILE))).toBe(`ConfigError: ${FILE}:1:23: sandbox.network: must be true or false, not a number`);
    expect(String(settingsAsWritten('{"toolSearch":"sometimes"}', FILE))).toMatch(/^ConfigError: \/p\/\.mca\/settings\.json:1:15: toolSearch: must be/);
    expect(String(settingsAsWritten('{"mcp":{"maxTools":1}}', FILE))).toBe(`ConfigError: ${FILE}:1:9: mcp.maxTools: unknown field (expected one of: maxToolsPerServer)`);
  });
});

describe("parseSettings", () => {
  it("turns each permissions list into rules whose origin is the file", () => {
    const text = JSON.stringify({ model: "ignored", permissions: { allow: ["read_file", "bash(git status*)"], deny: ["bash(rm*)"], ask: ["mcp__*"] } });
    expect(written(parseSettings(text, FILE))).toEqual([
      { verdict: "allow", pattern: "read_file", origin: FILE },
      { verdict: "allow", pattern: "bash(git status*)", origin: FILE },
      { verdict: "deny", pattern: "bash(rm*)", origin: FILE },
      { verdict: "ask", pattern: "mcp__*", origin: FILE },
    ]);
  });

  it("accepts a file without permissions", () => {
    expect(parseSettings("{}", FILE)).toEqual([]);
  });

  it("names the file, line and column when the JSON is invalid", () => {
    expect(written(parseSettings("{ permissions: ", FILE))).toBe(`${FILE}:1:3: invalid JSON: unexpected character "p"`);
  });

  it("names the file, place and entry of a malformed rule", () => {
    expect(written(parseSettings('{"permissions":{"deny":["bash", "bash(rm*"]}}', FILE))).toBe(
      `${FILE}:1:33: permissions.deny[1]: missing ")" at the end of "bash(rm*"`,
    );
  });

  it("names the place of every shape error", () => {
    expect(written(parseSettings("[]", FILE))).toBe(`${FILE}:1:1: must be an object, not an array`);
    expect(written(parseSettings('{"permissions":[]}', FILE))).toBe(`${FILE}:1:16: permissions: must be an object, not an array`);
    expect(written(parseSettings('{"permissions":{"alow":[]}}', FILE))).toBe(
      `${FILE}:1:17: permissions.alow: unknown field (expected one of: allow, ask, deny)`,
    );
    expect(written(parseSettings('{"permissions":{"allow":"read_file"}}', FILE))).toBe(
      `${FILE}:1:25: permissions.allow: must be an array of rules`,
    );
    expect(written(parseSettings('{"permissions":{"allow":[3]}}', FILE))).toBe(`${FILE}:1:26: permissions.allow[0]: must be a string, not a number`);
  });

  it("rejects a key written twice, which JSON.parse would silently drop", () => {
    expect(written(parseSettings('{"permissions":{"deny":["bash"],"deny":[]}}', FILE))).toBe(
      `${FILE}:1:33: permissions.deny: duplicate key "deny": it is written more than once`,
    );
  });
});

describe("parseMcpSettings", () => {
  it("reads the cap on one server's tools, and nothing when the file says nothing of mcp", () => {
    expect(parseMcpSettings('{"permissions":{},"mcp":{"maxToolsPerServer":5000}}', FILE)).toEqual({ maxToolsPerServer: 5000 });
    expect(parseMcpSettings('{"permissions":{}}', FILE)).toEqual({});
  });

  it("names the place of a cap that is not a positive integer, and of an unknown field", () => {
    expect(String(parseMcpSettings('{"mcp":{"maxToolsPerServer":0}}', FILE))).toBe(
      `ConfigError: ${FILE}:1:29: mcp.maxToolsPerServer: must be a positive integer (tools)`,
    );
    expect(String(parseMcpSettings('{"mcp":{"maxTools":10}}', FILE))).toBe(
      `ConfigError: ${FILE}:1:9: mcp.maxTools: unknown field (expected one of: maxToolsPerServer)`,
    );
  });
});

describe("parseToolSearch", () => {
  it("reads auto, auto with a share of the window, always and never; nothing when the file says nothing", () => {
    expect(parseToolSearch('{"toolSearch":"auto"}', FILE)).toEqual({ kind: "auto", percent: 10 });
    expect(parseToolSearch('{"toolSearch":"auto:5"}', FILE)).toEqual({ kind: "auto", percent: 5 });
    expect(parseToolSearch('{"toolSearch":"auto:2.5%"}', FILE)).toEqual({ kind: "auto", percent: 2.5 });
    expect(parseToolSearch('{"toolSearch":"always"}', FILE)).toEqual({ kind: "always" });
    expect(parseToolSearch('{"toolSearch":"never"}', FILE)).toEqual({ kind: "never" });
    expect(parseToolSearch('{"permissions":{}}', FILE)).toBeUndefined();
  });

  it("names the place of a value it cannot read", () => {
    const shape = 'must be "auto", "auto:<percent of the context window>" (above 0, at most 100), "always" or "never"';
    expect(String(parseToolSearch('{"toolSearch":"sometimes"}', FILE))).toBe(`ConfigError: ${FILE}:1:15: toolSearch: ${shape}, not "sometimes"`);
    expect(String(parseToolSearch('{"toolSearch":"auto:0"}', FILE))).toBe(`ConfigError: ${FILE}:1:15: toolSearch: ${shape}, not "auto:0"`);
    expect(String(parseToolSearch('{"toolSearch":"auto:101"}', FILE))).toBe(`ConfigError: ${FILE}:1:15: toolSearch: ${shape}, not "auto:101"`);
    expect(String(parseToolSearch('{\n "toolSearch": true}', FILE))).toBe(`ConfigError: ${FILE}:2:16: toolSearch: must be a string, not a boolean`);
  });
});

describe("loadToolSearch", () => {
  const user = { path: "/u/settings.json", text: '{"toolSearch":"always"}' };
  const project = (trusted: boolean, text: string): ProjectSettings => ({ read: { path: FILE, text }, trusted });

  it("takes a trusted project's setting over the user's, the user's over an untrusted project's, else auto at 10 %", () => {
    expect(loadToolSearch(user, project(true, '{"toolSearch":"never"}'))).toEqual({ kind: "never" });
    expect(loadToolSearch(user, project(false, '{"toolSearch":"never"}'))).toEqual({ kind: "always" });
    expect(loadToolSearch(null, { read: null, trusted: false })).toEqual({ kind: "auto", percent: 10 });
  });

  it("reports an untrusted project's malformed setting all the same", () => {
    expect(String(loadToolSearch(user, project(false, '{"toolSearch":"no"}')))).toMatch(/^ConfigError: \/p\/\.mca\/settings\.json:1:15: toolSearch: must be/);
  });
});

describe("parseRuleFlags", () => {
  it("gives each flag's rules the flag as origin", () => {
    expect(written(parseRuleFlags({ allow: ["write_file"], deny: ["bash(rm*)"] }))).toEqual([
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

/** The project's settings as the trust step hands them on: the file's text, read now. */
async function projectSettings(path: string, trusted: boolean): Promise<ProjectSettings> {
  return { read: { path, text: await readFile(path, "utf8") }, trusted };
}

describe("loadRules", () => {
  const dir = tempProjectPerTest("mca-settings-");

  it("collects the rules of existing files and the flags, skipping missing files", async () => {
    const file = join(dir(), "settings.json");
    await writeFile(file, '{"permissions":{"allow":["list_dir"]}}');
    expect(written(loadRules(readUserSettings(join(dir(), "missing.json")), await projectSettings(file, true), { allow: ["write_file"], deny: [] }))).toEqual([
      { verdict: "allow", pattern: "list_dir", origin: file },
      { verdict: "allow", pattern: "write_file", origin: "--allow" },
    ]);
  });

  it("applies an untrusted project's deny and ask rules but not its allow rules; the user's own allow rules stay", async () => {
    const user = join(dir(), "user.json");
    const project = join(dir(), "project.json");
    await writeFile(user, '{"permissions":{"allow":["list_dir"]}}');
    await writeFile(project, '{"permissions":{"allow":["bash"],"ask":["read_file"],"deny":["write_file"]}}');
    const untrusted = written(loadRules(readUserSettings(user), await projectSettings(project, false), { allow: [], deny: [] }));
    expect(untrusted).toEqual([
      { verdict: "allow", pattern: "list_dir", origin: user },
      { verdict: "ask", pattern: "read_file", origin: project },
      { verdict: "deny", pattern: "write_file", origin: project },
    ]);
    const trusted = written(loadRules(readUserSettings(user), await projectSettings(project, true), { allow: [], deny: [] }));
    expect(trusted).toContainEqual({ verdict: "allow", pattern: "bash", origin: project });
  });

  it("reports a settings path it cannot read as a file", async () => {
    const folder = join(dir(), "settings.json");
    await mkdir(folder);
    const result = loadRules(readUserSettings(folder), { read: null, trusted: true }, { allow: [], deny: [] });
    expect(result instanceof Error ? result.message : result).toMatch(new RegExp(`^${folder}: cannot read settings: `));
  });
});

describe("parseSandboxSettings", () => {
  const places = { home: "/h", projectDir: "/p" };

  it("reads the switches and makes each writable folder absolute: `~/` under the home, a relative one under the project", () => {
    const text = JSON.stringify({ sandbox: { enabled: false, network: true, writable: ["/abs", "~/.cache", "build/out"] } });
    expect(parseSandboxSettings(text, FILE, places)).toEqual({ enabled: false, network: true, writable: ["/abs", "/h/.cache", "/p/build/out"] });
  });

  it("gives nothing when the file says nothing of the sandbox", () => {
    expect(parseSandboxSettings('{"permissions":{}}', FILE, places)).toEqual({});
  });

  it("names the place of every shape error", () => {
    const message = (text: string): unknown => {
      const result = parseSandboxSettings(text, FILE, places);
      return result instanceof Error ? result.message : result;
    };
    expect(message('{"sandbox":{"enabled":"no"}}')).toBe(`${FILE}:1:23: sandbox.enabled: must be true or false, not a string`);
    expect(message('{"sandbox":{"writable":"/x"}}')).toBe(`${FILE}:1:24: sandbox.writable: must be an array of folders`);
    expect(message('{"sandbox":{"writable":[""]}}')).toBe(`${FILE}:1:25: sandbox.writable[0]: must not be empty`);
    expect(message('{"sandbox":{"netwrk":true}}')).toBe(`${FILE}:1:13: sandbox.netwrk: unknown field (expected one of: enabled, network, writable)`);
  });
});

describe("loadSandboxSettings", () => {
  const dir = tempProjectPerTest("mca-sandbox-settings-");
  const places = { home: "/h", projectDir: "/p" };

  it("is on, without network and extra folders, when no file says otherwise", () => {
    expect(loadSandboxSettings(readUserSettings(join(dir(), "missing.json")), { read: null, trusted: false }, places)).toEqual({ enabled: true, network: false, writable: [] });
  });

  it("lays a trusted project's settings over the user's, and ignores an untrusted project's, which would loosen the sandbox", async () => {
    const user = join(dir(), "user.json");
    const project = join(dir(), "project.json");
    await writeFile(user, '{"sandbox":{"writable":["~/.cache"]}}');
    await writeFile(project, '{"sandbox":{"enabled":false,"network":true,"writable":["/"]}}');
    expect(loadSandboxSettings(readUserSettings(user), await projectSettings(project, false), places)).toEqual({ enabled: true, network: false, writable: ["/h/.cache"] });
    expect(loadSandboxSettings(readUserSettings(user), await projectSettings(project, true), places)).toEqual({ enabled: false, network: true, writable: ["/h/.cache", "/"] });
  });

  it("reports an untrusted project's malformed sandbox settings all the same", async () => {
    const project = join(dir(), "project.json");
    await writeFile(project, '{"sandbox":{"network":1}}');
    const result = loadSandboxSettings(readUserSettings(join(dir(), "missing.json")), await projectSettings(project, false), places);
    expect(result instanceof Error ? result.message : result).toBe(`${project}:1:23: sandbox.network: must be true or false, not a number`);
  });
});
