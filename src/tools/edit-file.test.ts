import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createEditFileTool } from "./edit-file.js";
import { callTool } from "./test-support/call-tool.js";
import { tempProjectPerTest } from "./test-support/temp-project.js";

const context = { signal: new AbortController().signal };

describe("edit_file", () => {
  const project = tempProjectPerTest("mca-edit-");

  const edit = (args: Record<string, unknown>) => callTool(createEditFileTool(project()), args, context);
  const content = () => readFileSync(join(project(), "f.ts"), "utf8");

  it("replaces the one occurrence and says on which line", async () => {
    writeFileSync(join(project(), "f.ts"), "const a = 1;\nconst b = 2;\n");
    expect(await edit({ path: "f.ts", old_string: "b = 2", new_string: "b = 3" })).toEqual({
      text: "edited f.ts: replaced 1 occurrence at line 2",
      isError: false,
    });
    expect(content()).toBe("const a = 1;\nconst b = 3;\n");
  });

  it("reports zero matches and changes nothing", async () => {
    writeFileSync(join(project(), "f.ts"), "const a = 1;\n");
    expect(await edit({ path: "f.ts", old_string: "zzz", new_string: "y" })).toEqual({
      text: "old_string matched 0 times in f.ts; it must match exactly once, so nothing was changed",
      isError: true,
    });
    expect(content()).toBe("const a = 1;\n");
  });

  it("reports two matches and changes nothing", async () => {
    writeFileSync(join(project(), "f.ts"), "x();\nx();\n");
    expect(await edit({ path: "f.ts", old_string: "x();", new_string: "y();" })).toEqual({
      text: "old_string matched 2 times in f.ts; it must match exactly once, so nothing was changed",
      isError: true,
    });
    expect(content()).toBe("x();\nx();\n");
  });

  it("counts overlapping occurrences as ambiguous", async () => {
    writeFileSync(join(project(), "f.ts"), "aaa");
    const result = await edit({ path: "f.ts", old_string: "aa", new_string: "b" });
    expect(result.text).toMatch(/^old_string matched 2 times/);
  });

  it("inserts the new string literally, `$&` included", async () => {
    writeFileSync(join(project(), "f.ts"), "price\n");
    await edit({ path: "f.ts", old_string: "price", new_string: "$& $1 $$" });
    expect(content()).toBe("$& $1 $$\n");
  });

  it("keeps every byte outside the edit of a file that is not valid UTF-8", async () => {
    // "café = 1;" in Latin-1 (é is the lone byte e9), then a line to edit.
    const before = Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x20, 0x3d, 0x20, 0x31, 0x3b, 0x0a, 0x62, 0x20, 0x3d, 0x20, 0x32, 0x0a]);
    writeFileSync(join(project(), "f.ts"), before);
    expect(await edit({ path: "f.ts", old_string: "b = 2", new_string: "b = 3" })).toEqual({
      text: "edited f.ts: replaced 1 occurrence at line 2",
      isError: false,
    });
    const after = Buffer.from([...before.subarray(0, 14), 0x33, 0x0a]);
    expect(readFileSync(join(project(), "f.ts"))).toEqual(after);
  });

  it("says that a file is not UTF-8 when text there cannot match", async () => {
    const before = Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]);
    writeFileSync(join(project(), "f.ts"), before);
    expect(await edit({ path: "f.ts", old_string: "café", new_string: "cafe" })).toEqual({
      text:
        "old_string matched 0 times in f.ts (f.ts is not valid UTF-8 text: only its UTF-8 parts can match); " +
        "it must match exactly once, so nothing was changed",
      isError: true,
    });
    expect(readFileSync(join(project(), "f.ts"))).toEqual(before);
  });

  it("refuses a named pipe instead of waiting for a writer", async () => {
    execFileSync("mkfifo", [join(project(), "pipe")]);
    expect(await edit({ path: "pipe", old_string: "a", new_string: "b" })).toEqual({ text: "pipe is not a regular file", isError: true });
  });

  it("reports a missing file", async () => {
    expect(await edit({ path: "nope.ts", old_string: "a", new_string: "b" })).toEqual({
      text: "file not found: nope.ts",
      isError: true,
    });
  });

  it("refuses an empty old_string", async () => {
    writeFileSync(join(project(), "f.ts"), "x");
    expect(await edit({ path: "f.ts", old_string: "", new_string: "b" })).toEqual({
      text: 'argument "old_string" must not be empty; use write_file to create a file',
      isError: true,
    });
  });

  it("names the absolute path it would change", () => {
    expect(createEditFileTool(project()).changes?.({ path: "f.ts", oldString: "a", newString: "b" })).toEqual([
      join(project(), "f.ts"),
    ]);
  });

  it("refuses a path outside the project folder", async () => {
    expect(await edit({ path: "/etc/hosts", old_string: "a", new_string: "b" })).toEqual({
      text: `path /etc/hosts is outside the project folder ${project()}`,
      isError: true,
    });
  });
});
