import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { findGitProbe } from "./git-probe.js";

describe("findGitProbe", () => {
  let project = "";
  beforeEach(() => {
    project = mkdtempSync(join(tmpdir(), "mca-git-probe-"));
  });
  afterEach(() => rmSync(project, { recursive: true, force: true }));

  it("takes git from an absolute PATH entry outside the project, never one a command could plant", () => {
    mkdirSync(join(project, "bin"));
    writeFileSync(join(project, "bin", "git"), "#!/bin/sh\nexit 0\n");
    chmodSync(join(project, "bin", "git"), 0o755);
    const probe = findGitProbe({ PATH: [join(project, "bin"), "bin", "/usr/bin"].join(":") }, project);
    expect(probe?.git).toBe("/usr/bin/git");
  });

  it("is none when no absolute PATH entry holds git", () => {
    expect(findGitProbe({ PATH: `relative:${project}` }, join(project, "elsewhere"))).toBeUndefined();
  });

  it("runs git without the caller's GIT_* variables", () => {
    const probe = findGitProbe({ PATH: "/usr/bin:/bin", GIT_DIR: join(project, "nowhere"), GIT_CONFIG_PARAMETERS: "'user.name'='planted'" }, project);
    const answer = probe?.run(project, ["config", "--get", "user.name"]);
    expect(answer?.kind === "answered" ? answer.stdout : "").not.toContain("planted");
  });
});
