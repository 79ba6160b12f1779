import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempProjectPerTest } from "../tools/test-support/temp-project.js";
import { findProjectRoot } from "./project-root.js";

describe("findProjectRoot", () => {
  const home = tempProjectPerTest("mca-root-");

  it("is the nearest folder upward holding .git, mcp.config.json or .mca/settings.json", async () => {
    const deep = join(home(), "repo", "src", "deep");
    await mkdir(deep, { recursive: true });
    await mkdir(join(home(), "repo", ".git"));
    expect(findProjectRoot(deep, home())).toBe(join(home(), "repo"));

    // A nearer marker wins over a farther one.
    await writeFile(join(home(), "repo", "src", "mcp.config.json"), "{}");
    expect(findProjectRoot(deep, home())).toBe(join(home(), "repo", "src"));
    await mkdir(join(deep, ".mca"));
    await writeFile(join(deep, ".mca", "settings.json"), "{}");
    expect(findProjectRoot(deep, home())).toBe(deep);
  });

  it("does not take a folder for a project because mca once ran there (.mca/ alone)", async () => {
    const sub = join(home(), "scratch", "sub");
    await mkdir(join(home(), "scratch", ".mca"), { recursive: true });
    await mkdir(sub);
    expect(findProjectRoot(sub, home())).toBe(sub);
  });

  it("never climbs to the home folder: a marker there makes only the home folder itself a project", async () => {
    await mkdir(join(home(), ".git"));
    const plain = join(home(), "plain", "inner");
    await mkdir(plain, { recursive: true });
    expect(findProjectRoot(plain, home())).toBe(plain);
    expect(findProjectRoot(home(), home())).toBe(home());
  });
});
