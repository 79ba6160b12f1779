import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempProjectPerTest } from "../tools/test-support/temp-project.js";
import { completeLine } from "./completion.js";

describe("completeLine", () => {
  const project = tempProjectPerTest("mca-complete-");
  const sources = () => ({ commands: ["help", "tools", "undo", "exit"], tools: () => ["read_file", "mcp__notes__search", "mcp__notes__read_note"], projectDir: project() });

  it("completes slash commands at the start of a line", () => {
    expect(completeLine("/u", sources())).toEqual([["/undo"], "/u"]);
    expect(completeLine("/", sources())[0]).toEqual(["/help", "/tools", "/undo", "/exit"]);
  });

  it("completes tool names after /call", () => {
    expect(completeLine("/call mcp__notes__r", sources())).toEqual([["mcp__notes__read_note"], "mcp__notes__r"]);
  });

  it("completes file and folder names relative to the project, folders with a slash, hidden ones only when asked", async () => {
    await mkdir(join(project(), "src"));
    await writeFile(join(project(), "src", "main.ts"), "");
    await writeFile(join(project(), "src", "map.ts"), "");
    await writeFile(join(project(), ".env"), "");
    expect(completeLine("read s", sources())).toEqual([["src/"], "s"]);
    expect(completeLine("look at src/ma", sources())).toEqual([["src/main.ts", "src/map.ts"], "src/ma"]);
    expect(completeLine("open ", sources())[0]).toEqual(["src/"]);
    expect(completeLine("open .e", sources())[0]).toEqual([".env"]);
    expect(completeLine("open nothing/here", sources())).toEqual([[], "nothing/here"]);
  });
});
