import { mkdirSync, readdirSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ensureStateFolder, fnv1a64, oldStateNotice, projectState, userStateDir } from "./state-folder.js";
import { tempStatePerTest } from "./test-support/temp-state.js";

const state = tempStatePerTest("mca-state-");

describe("userStateDir", () => {
  it("is under XDG_STATE_HOME when that is an absolute path, else ~/.local/state", () => {
    expect([
      userStateDir({ XDG_STATE_HOME: "/x/state" }, "/h"),
      userStateDir({ XDG_STATE_HOME: "" }, "/h"),
      userStateDir({ XDG_STATE_HOME: "relative/state" }, "/h"),
      userStateDir({}, "/h"),
    ]).toEqual(["/x/state/mca", "/h/.local/state/mca", "/h/.local/state/mca", "/h/.local/state/mca"]);
  });
});

describe("fnv1a64", () => {
  it("gives the published FNV-1a 64-bit values", () => {
    expect([fnv1a64(""), fnv1a64("a"), fnv1a64("foobar")]).toEqual(["cbf29ce484222325", "af63dc4c8601ec8c", "85944171f73967e8"]);
  });
});

describe("projectState", () => {
  it("names the folder after the project's real path: its name, then a short hash that tells same-named projects apart", () => {
    const link = join(state().dir, "..", "link");
    symlinkSync(state().projectDir, link);
    const hash = fnv1a64(state().projectDir).slice(0, 12);
    expect([projectState(link, {}, "/h"), projectState("/a/b/my project!", { XDG_STATE_HOME: "/s" }, "/h").dir.replace(/-[0-9a-f]{12}$/u, "-<hash>")]).toEqual([
      { projectDir: state().projectDir, dir: `/h/.local/state/mca/projects/project-${hash}` },
      "/s/mca/projects/my_project_-<hash>",
    ]);
  });
});

describe("ensureStateFolder", () => {
  it("makes the folder asked for, and the state folder, the user's only", () => {
    const dir = ensureStateFolder(state(), "sessions");
    expect({ dir, state: statSync(state().dir).mode & 0o777, inner: statSync(dir).mode & 0o777 }).toEqual({ dir: join(state().dir, "sessions"), state: 0o700, inner: 0o700 });
  });

  it("refuses a folder on the way that is a symlink: mca's state is never kept where a link leads", () => {
    mkdirSync(state().dir);
    const elsewhere = join(state().projectDir, "elsewhere");
    mkdirSync(elsewhere);
    symlinkSync(elsewhere, join(state().dir, "sessions"));
    expect(() => ensureStateFolder(state(), "sessions")).toThrow(`${join(state().dir, "sessions")} is not a folder (mca keeps its state there)`);
  });
});

describe("oldStateNotice", () => {
  it("says once per project that the project's old .mca/ state is ignored, and how to delete it", () => {
    mkdirSync(join(state().projectDir, ".mca", "sessions"), { recursive: true });
    mkdirSync(join(state().projectDir, ".mca", "checkpoints.git"));
    writeFileSync(join(state().projectDir, ".mca", "settings.json"), "{}");
    expect([oldStateNotice(state()), oldStateNotice(state())]).toEqual([
      `.mca/sessions, .mca/checkpoints.git in this project are ignored: mca keeps its sessions, snapshots and checkpoints in ${state().dir} (to delete the old ones: rm -rf .mca/sessions .mca/checkpoints.git)`,
      null,
    ]);
  });

  it("says nothing for a project whose .mca/ holds only settings, or whose .mca is a symlink", () => {
    const elsewhere = join(state().projectDir, "elsewhere");
    mkdirSync(join(elsewhere, "sessions"), { recursive: true });
    symlinkSync(elsewhere, join(state().projectDir, ".mca"));
    expect(oldStateNotice(state())).toBeNull();
    expect(readdirSync(state().projectDir).sort()).toEqual([".mca", "elsewhere"]);
  });
});
