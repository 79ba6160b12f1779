import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { resolveInProject } from "./project-files.js";

describe("resolveInProject", () => {
  let base: string;
  let project: string;
  let elsewhere: string;

  beforeEach(() => {
    base = realpathSync(mkdtempSync(join(tmpdir(), "mca-resolve-")));
    project = join(base, "project");
    elsewhere = join(base, "elsewhere");
    mkdirSync(project);
    mkdirSync(elsewhere);
    writeFileSync(join(elsewhere, "secret.txt"), "secret");
  });
  afterEach(() => rmSync(base, { recursive: true, force: true }));

  it("resolves a relative path inside the project folder to an absolute path", () => {
    expect(resolveInProject(project, "src/a.ts")).toBe(join(project, "src/a.ts"));
  });

  it("accepts the project folder itself and an absolute path inside it", () => {
    expect(resolveInProject(project, ".")).toBe(project);
    expect(resolveInProject(project, join(project, "x.txt"))).toBe(join(project, "x.txt"));
  });

  it("accepts a name that merely starts with two dots", () => {
    expect(resolveInProject(project, "..notes")).toBe(join(project, "..notes"));
  });

  it("refuses a relative path that climbs out, naming the path and the folder", () => {
    expect(resolveInProject(project, "../x")).toEqual(new Error(`path ../x is outside the project folder ${project}`));
  });

  it("refuses an absolute path elsewhere", () => {
    const path = join(elsewhere, "secret.txt");
    expect(resolveInProject(project, path)).toEqual(new Error(`path ${path} is outside the project folder ${project}`));
  });

  it("refuses a symbolic link inside the folder that points outside it", () => {
    symlinkSync(join(elsewhere, "secret.txt"), join(project, "link.txt"));
    expect(resolveInProject(project, "link.txt")).toEqual(
      new Error(`path link.txt is outside the project folder ${project}`),
    );
  });

  it("refuses a new file under a linked folder that points outside", () => {
    symlinkSync(elsewhere, join(project, "out"));
    expect(resolveInProject(project, "out/new/file.txt")).toEqual(
      new Error(`path out/new/file.txt is outside the project folder ${project}`),
    );
  });

  it("accepts a symbolic link that stays inside the folder", () => {
    mkdirSync(join(project, "real"));
    symlinkSync(join(project, "real"), join(project, "alias"));
    expect(resolveInProject(project, "alias/file.txt")).toBe(join(project, "alias/file.txt"));
  });

  it("says so when the project folder itself is missing", () => {
    const missing = join(base, "missing");
    expect(resolveInProject(missing, "a.txt")).toEqual(new Error(`the project folder ${missing} does not exist`));
  });

  it("refuses a path through a broken symbolic link", () => {
    symlinkSync(join(elsewhere, "missing"), join(project, "dangling"));
    expect(resolveInProject(project, "dangling")).toEqual(
      new Error("path dangling goes through a broken symbolic link (dangling)"),
    );
  });
});
