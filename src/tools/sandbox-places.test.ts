import { mkdirSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { programPlaces, sandboxPlaces } from "./sandbox-places.js";
import { tempProjectPerTest } from "./test-support/temp-project.js";

describe("programPlaces", () => {
  const project = tempProjectPerTest("mca-program-places-");

  it("keeps the whole folder of a program below the project's root", () => {
    const root = realpathSync(project());
    expect(programPlaces(root, "tools/server/main.mjs")).toEqual([{ path: join(root, "tools", "server"), absent: null }]);
  });

  it("keeps a program at the root and the files beside it in its language, as the root itself cannot be read-only", () => {
    const root = realpathSync(project());
    for (const name of ["server.mjs", "lib.js", "types.ts", "package.json", "README.md", "tool.py"]) writeFileSync(join(root, name), "");
    mkdirSync(join(root, "src.js"));
    expect(programPlaces(root, "server.mjs").map((place) => place.path.slice(root.length + 1)).sort()).toEqual(["lib.js", "package.json", "server.mjs", "src.js", "types.ts"]);
    expect(programPlaces(root, "tool.py")).toEqual([{ path: join(root, "tool.py"), absent: null }]);
    expect(programPlaces(root, "run")).toEqual([{ path: join(root, "run"), absent: null }]);
  });
});

describe("sandboxPlaces", () => {
  const project = tempProjectPerTest("mca-sandbox-places-");

  it("names mca's settings and state, the project's .mca/ and .git (both held when absent), .husky/ and the programs, read again at each call", () => {
    const root = realpathSync(project());
    const places = sandboxPlaces({ projectDir: root, env: { XDG_CONFIG_HOME: "/c", XDG_STATE_HOME: "/s" }, home: "/h", programs: [{ alias: "notes", path: "tools/s.mjs", hashed: true }] });
    const before = places();
    mkdirSync(join(root, ".git", "modules", "vendor", "lib"), { recursive: true });
    writeFileSync(join(root, ".git", "modules", "vendor", "lib", "HEAD"), "ref: refs/heads/main\n");
    expect([before, places().slice(before.length)]).toEqual([
      [
        { path: "/c/mca", absent: "folder" },
        { path: "/s/mca", absent: "folder" },
        { path: join(root, ".mca"), absent: "folder" },
        { path: join(root, "tools"), absent: null },
        { path: join(root, ".git"), absent: "folder" },
        { path: join(root, ".husky"), absent: null },
      ],
      [{ path: join(root, "vendor", "lib", ".git"), absent: null }],
    ]);
  });
});
