import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openRegularFile, pathSubject, resolveInProject } from "./project-files.js";

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

describe("resolveInProject", () => {
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

describe("pathSubject", () => {
  const inside = (text: string) => ({ kind: "path", text, outside: false });

  it("gives the path relative to the project with `.`, `..` and trailing slashes gone", () => {
    writeFileSync(join(project, ".env"), "KEY=1");
    expect(pathSubject(project, ".env/")).toEqual(inside(".env"));
    expect(pathSubject(project, "./src/../.env")).toEqual(inside(".env"));
    expect(pathSubject(project, "src//a.ts")).toEqual(inside("src/a.ts"));
    expect(pathSubject(project, ".")).toEqual(inside("."));
  });

  it("makes an absolute path inside the project relative", () => {
    expect(pathSubject(project, join(project, ".env"))).toEqual(inside(".env"));
  });

  it("follows a symbolic link to the file it names", () => {
    writeFileSync(join(project, ".env"), "KEY=1");
    symlinkSync(".env", join(project, "envlink"));
    expect(pathSubject(project, "envlink")).toEqual(inside(".env"));
  });

  it("places a file that does not exist yet under the real location of its deepest existing folder", () => {
    mkdirSync(join(project, ".git/hooks"), { recursive: true });
    mkdirSync(join(project, "src"));
    symlinkSync("../.git/hooks", join(project, "src/hooks"));
    expect(pathSubject(project, "src/hooks/new/pre-commit")).toEqual(inside(".git/hooks/new/pre-commit"));
  });

  it("marks a path the tools would refuse as outside, keeping its normalised text for deny rules", () => {
    symlinkSync(join(elsewhere, "secret.txt"), join(project, "link.txt"));
    expect(pathSubject(project, "link.txt")).toEqual({ kind: "path", text: "link.txt", outside: true });
    expect(pathSubject(project, "a/../../x/")).toEqual({ kind: "path", text: "../x", outside: true });
  });
});

describe("openRegularFile", () => {
  it("opens a regular file to read and to write", async () => {
    writeFileSync(join(project, "a.txt"), "old");
    const reading = await openRegularFile(join(project, "a.txt"), "read");
    expect(await reading.readFile("utf8").finally(() => reading.close())).toBe("old");
    const writing = await openRegularFile(join(project, "b.txt"), "write");
    await writing.writeFile("new").finally(() => writing.close());
    expect(readFileSync(join(project, "b.txt"), "utf8")).toBe("new");
  });

  it("refuses a named pipe at once, to read or to write, instead of waiting for its other end", async () => {
    execFileSync("mkfifo", [join(project, "pipe")]);
    await expect(openRegularFile(join(project, "pipe"), "read")).rejects.toThrow("not a regular file (a pipe, socket or device)");
    await expect(openRegularFile(join(project, "pipe"), "write")).rejects.toThrow("not a regular file (a pipe, socket or device)");
  });

  it("refuses a folder with EISDIR", async () => {
    mkdirSync(join(project, "folder"));
    await expect(openRegularFile(join(project, "folder"), "read")).rejects.toMatchObject({ code: "EISDIR" });
  });
});
