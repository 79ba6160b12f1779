import { chmodSync, lstatSync, readFileSync, statSync, symlinkSync } from "node:fs";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ConfigError } from "./config-reader.js";
import { addAllowRule } from "./settings-edit.js";
import { userSettingsFile } from "./settings.js";

let root: string;
let file: string;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), "mca-settings-edit-"));
  file = userSettingsFile({ HOME: join(root, "home"), XDG_CONFIG_HOME: join(root, "config") });
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

async function written(text: string): Promise<void> {
  await mkdir(join(root, "config", "mca"), { recursive: true });
  await writeFile(file, text);
}

describe("addAllowRule", () => {
  it("appends the rule to a hand-written list, keeping its indentation, its line ends and the other keys", async () => {
    const text = [
      "{",
      '   "permissions": {',
      '      "allow": [',
      '         "read_file",',
      '         "bash(git status*)"',
      "      ],",
      '      "deny": ["bash(rm *)"]',
      "   },",
      '   "sandbox": { "writable": ["~/.cache"] }',
      "}",
      "",
    ];
    await written(text.join("\r\n"));
    expect(await addAllowRule(file, "network(registry.npmjs.org)")).toBe("added");
    expect(readFileSync(file, "utf8")).toBe([...text.slice(0, 4), '         "bash(git status*)",', '         "network(registry.npmjs.org)"', ...text.slice(5)].join("\r\n"));
  });

  it("keeps a list written on one line on one line", async () => {
    await written(`{ "permissions": { "allow": ["read_file"] } }\n`);
    expect(await addAllowRule(file, "network(example.com)")).toBe("added");
    expect(readFileSync(file, "utf8")).toBe(`{ "permissions": { "allow": ["read_file", "network(example.com)"] } }\n`);
  });

  it("fills an empty list", async () => {
    await written(`{\n  "permissions": {\n    "allow": [\n    ]\n  }\n}\n`);
    expect(await addAllowRule(file, "network(example.com)")).toBe("added");
    expect(readFileSync(file, "utf8")).toBe(`{\n  "permissions": {\n    "allow": [\n      "network(example.com)"\n    ]\n  }\n}\n`);
  });

  it("adds the section to a file without permissions, after its last key", async () => {
    await written(`{\n\t"toolSearch": "always"\n}\n`);
    expect(await addAllowRule(file, "network(example.com)")).toBe("added");
    expect(readFileSync(file, "utf8")).toBe(`{\n\t"toolSearch": "always",\n\t"permissions": {\n\t\t"allow": [\n\t\t\t"network(example.com)"\n\t\t]\n\t}\n}\n`);
  });

  it("creates a missing file readable by its owner alone, in a folder only its owner can enter", async () => {
    expect(await addAllowRule(file, "network(example.com)")).toBe("added");
    expect(JSON.parse(readFileSync(file, "utf8"))).toEqual({ permissions: { allow: ["network(example.com)"] } });
    expect({ file: statSync(file).mode & 0o777, folder: statSync(join(root, "config", "mca")).mode & 0o777 }).toEqual({ file: 0o600, folder: 0o700 });
  });

  it("keeps an existing file's permission bits", async () => {
    await written(`{}\n`);
    chmodSync(file, 0o640);
    expect(await addAllowRule(file, "network(example.com)")).toBe("added");
    expect(statSync(file).mode & 0o777).toBe(0o640);
  });

  it("writes nothing when a rule of the same text is there already", async () => {
    const text = `{ "permissions": { "allow": ["network(Example.COM.)"] } }\n`;
    await written(text);
    expect(await addAllowRule(file, "network(example.com)")).toBe("already there");
    expect(readFileSync(file, "utf8")).toBe(text);
  });

  it("refuses a symbolic link planted in the file's place, leaving the file it points to alone", async () => {
    const target = join(root, "elsewhere.json");
    await writeFile(target, "{}\n");
    await mkdir(join(root, "config", "mca"), { recursive: true });
    symlinkSync(target, file);
    const result = await addAllowRule(file, "network(example.com)");
    expect(result).toBeInstanceOf(ConfigError);
    expect(result instanceof ConfigError ? result.detail : result).toBe("is a symbolic link: mca edits only a file itself, never through a link");
    expect({ target: readFileSync(target, "utf8"), link: lstatSync(file).isSymbolicLink() }).toEqual({ target: "{}\n", link: true });
  });

  it("writes nothing into a file mca would refuse at start, and says where it is wrong", async () => {
    const text = `{ "permissions": { "allow": "read_file" } }\n`;
    await written(text);
    const result = await addAllowRule(file, "network(example.com)");
    expect(result instanceof ConfigError ? { path: result.path, detail: result.detail } : result).toEqual({ path: "permissions.allow", detail: "must be an array of rules" });
    expect(readFileSync(file, "utf8")).toBe(text);
  });

  it("leaves alone a file with comments, which mca's strict JSON reader refuses at start", async () => {
    const text = `{\n  // mine\n  "permissions": { "allow": [] }\n}\n`;
    await written(text);
    const result = await addAllowRule(file, "network(example.com)");
    expect(result instanceof ConfigError ? result.position : result).toEqual({ line: 2, column: 3 });
    expect(readFileSync(file, "utf8")).toBe(text);
  });

  it("refuses a rule it cannot read", async () => {
    const result = await addAllowRule(file, "network(a b)");
    expect(result).toBeInstanceOf(ConfigError);
    expect(() => statSync(file)).toThrow();
  });
});
