import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createWriteFileTool } from "./write-file.js";
import { callTool } from "./test-support/call-tool.js";
import { tempProjectPerTest } from "./test-support/temp-project.js";

const context = { signal: new AbortController().signal };

describe("write_file", () => {
  const project = tempProjectPerTest("mca-write-");

  it("creates the file and its missing parent folders", async () => {
    const result = await callTool(createWriteFileTool(project()), { path: "a/b/c.txt", content: "héllo\n" }, context);
    expect(result).toEqual({ text: "created a/b/c.txt (7 bytes)", isError: false });
    expect(readFileSync(join(project(), "a/b/c.txt"), "utf8")).toBe("héllo\n");
  });

  it("refuses a named pipe instead of waiting for a reader", async () => {
    execFileSync("mkfifo", [join(project(), "pipe")]);
    const result = await callTool(createWriteFileTool(project()), { path: "pipe", content: "x" }, context);
    expect(result).toEqual({ text: "pipe is not a regular file", isError: true });
  });

  it("overwrites an existing file and says so", async () => {
    writeFileSync(join(project(), "x.txt"), "old");
    const result = await callTool(createWriteFileTool(project()), { path: "x.txt", content: "new" }, context);
    expect(result).toEqual({ text: "overwrote x.txt (3 bytes)", isError: false });
    expect(readFileSync(join(project(), "x.txt"), "utf8")).toBe("new");
  });

  it("names the absolute path it would change, so the kernel can snapshot it", () => {
    const tool = createWriteFileTool(project());
    expect(tool.changes?.({ path: "src/x.ts", content: "" })).toEqual([join(project(), "src/x.ts")]);
  });

  it("names no file for a path outside the project folder", () => {
    expect(createWriteFileTool(project()).changes?.({ path: "../x", content: "" })).toEqual([]);
  });

  it("refuses a path outside the project folder and writes nothing", async () => {
    const result = await callTool(createWriteFileTool(project()), { path: "../escaped.txt", content: "x" }, context);
    expect(result).toEqual({ text: `path ../escaped.txt is outside the project folder ${project()}`, isError: true });
    expect(existsSync(join(project(), "../escaped.txt"))).toBe(false);
  });

  it("refuses to write over a folder", async () => {
    mkdirSync(join(project(), "src"));
    const result = await callTool(createWriteFileTool(project()), { path: "src", content: "x" }, context);
    expect(result).toEqual({ text: "src is a folder, not a file", isError: true });
  });

  it("requires content to be a string", async () => {
    const result = await callTool(createWriteFileTool(project()), { path: "x.txt" }, context);
    expect(result).toEqual({ text: 'argument "content" must be a string', isError: true });
  });
});
