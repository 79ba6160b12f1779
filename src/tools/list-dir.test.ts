import { linkSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createListDirTool } from "./list-dir.js";
import { callTool } from "./test-support/call-tool.js";
import { tempProjectPerTest } from "./test-support/temp-project.js";

const context = { signal: new AbortController().signal };

describe("list_dir", () => {
  const project = tempProjectPerTest("mca-list-");

  const list = (args: Record<string, unknown>) => callTool(createListDirTool(project()), args, context);

  it("lists the project folder sorted, folders with a trailing slash", async () => {
    mkdirSync(join(project(), "src"));
    mkdirSync(join(project(), ".git"));
    writeFileSync(join(project(), "b.txt"), "");
    writeFileSync(join(project(), "README.md"), "");
    expect(await list({})).toEqual({ text: ".git/\nREADME.md\nb.txt\nsrc/", isError: false });
  });

  it("lists a subfolder", async () => {
    mkdirSync(join(project(), "src/tools"), { recursive: true });
    writeFileSync(join(project(), "src/main.ts"), "");
    expect(await list({ path: "src" })).toEqual({ text: "main.ts\ntools/", isError: false });
  });

  it("says a folder is empty", async () => {
    mkdirSync(join(project(), "empty"));
    expect(await list({ path: "empty" })).toEqual({ text: "(empty is empty)", isError: false });
  });

  it("reports a missing folder and a file as errors", async () => {
    writeFileSync(join(project(), "a.txt"), "");
    expect(await list({ path: "nope" })).toEqual({ text: "folder not found: nope", isError: true });
    expect(await list({ path: "a.txt" })).toEqual({ text: "a.txt is a file, not a folder; use read_file", isError: true });
  });

  it("shows the first 1,000 names in order of a folder of 20,000 and counts the rest", async () => {
    const folder = join(project(), "many");
    mkdirSync(folder);
    // Hard links to one file: 20,000 real entries at a tenth of the cost of as many new files.
    writeFileSync(join(folder, "z-target"), "");
    const names = Array.from({ length: 20_000 }, (_, i) => `f${String(i).padStart(5, "0")}`);
    // Created from the last name to the first, so no order of creation can pass for sorting.
    for (const name of [...names].reverse()) linkSync(join(folder, "z-target"), join(folder, name));
    const lines = (await list({ path: "many" })).text.split("\n");
    expect(lines).toEqual([...names.slice(0, 1_000), "[19001 more entries not shown]"]);
  });

  it("stops when aborted", async () => {
    mkdirSync(join(project(), "src"));
    const controller = new AbortController();
    controller.abort();
    const result = await callTool(createListDirTool(project()), {}, { signal: controller.signal });
    expect(result).toEqual({ text: "list_dir aborted", isError: true });
  });

  it("refuses a folder outside the project folder", async () => {
    expect(await list({ path: ".." })).toEqual({
      text: `path .. is outside the project folder ${project()}`,
      isError: true,
    });
  });
});
