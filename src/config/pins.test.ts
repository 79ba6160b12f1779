import { realpathSync } from "node:fs";
import { mkdir, readFile, stat, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempProjectPerTest } from "../tools/test-support/temp-project.js";
import { ConfigError } from "./config-reader.js";
import { pinsFile, readPins, recordPins, removePins } from "./pins.js";

describe("pinned definitions", () => {
  const root = tempProjectPerTest("mca-pins-");
  const env = (): Record<string, string> => ({ XDG_CONFIG_HOME: join(root(), "config"), HOME: join(root(), "home") });
  const project = async (name = "project"): Promise<string> => {
    const dir = join(root(), name);
    await mkdir(join(dir, ".mca"), { recursive: true });
    return dir;
  };
  const notes = new Map([["search", "a1"], ["add", "b2"]]);

  it("has no pins before any is recorded", async () => {
    expect(readPins(await project(), env())).toEqual(new Map());
  });

  it("records a server's hashes in the user's config folder, readable by the user only, and reads them back", async () => {
    const dir = await project();
    expect(await recordPins(dir, env(), "notes", notes, new Date(0))).toBeUndefined();
    expect(readPins(dir, env())).toEqual(new Map([["notes", notes]]));
    expect(pinsFile(env())).toBe(join(root(), "config", "mca", "pinned-tools.json"));
    expect((await stat(pinsFile(env()))).mode & 0o777).toBe(0o600);
    expect((await stat(join(root(), "config", "mca"))).mode & 0o777).toBe(0o700);
    const realDir = realpathSync(dir);
    expect(JSON.parse(await readFile(pinsFile(env()), "utf8"))).toEqual({
      projects: { [realDir]: { notes: { pinnedAt: "1970-01-01T00:00:00.000Z", tools: { search: "a1", add: "b2" } } } },
    });
  });

  it("keeps each project's pins apart, and finds them through a symbolic link to the project", async () => {
    const dir = await project();
    const other = await project("other");
    await recordPins(dir, env(), "notes", notes, new Date(0));
    await symlink(dir, join(root(), "link"));
    expect(readPins(other, env())).toEqual(new Map());
    expect(readPins(join(root(), "link"), env())).toEqual(new Map([["notes", notes]]));
  });

  it("never reads a pins file planted in the project", async () => {
    const dir = await project();
    const planted = JSON.stringify({ projects: { [dir]: { notes: { pinnedAt: "x", tools: { search: "planted" } } } } });
    await writeFile(join(dir, "pinned-tools.json"), planted);
    await writeFile(join(dir, ".mca", "pinned-tools.json"), planted);
    expect(readPins(dir, env())).toEqual(new Map());
  });

  it("replaces a server's pins when it is pinned again, and forgets them when unpinned", async () => {
    const dir = await project();
    await recordPins(dir, env(), "notes", notes, new Date(0));
    await recordPins(dir, env(), "tickets", new Map([["search", "c3"]]), new Date(0));
    await recordPins(dir, env(), "notes", new Map([["search", "d4"]]), new Date(1));
    expect(readPins(dir, env())).toEqual(new Map([["notes", new Map([["search", "d4"]])], ["tickets", new Map([["search", "c3"]])]]));
    expect(await removePins(dir, env(), "notes")).toBe(true);
    expect(await removePins(dir, env(), "notes")).toBe(false);
    expect(readPins(dir, env())).toEqual(new Map([["tickets", new Map([["search", "c3"]])]]));
  });

  it("refuses a store whose hash is not a string, naming its place", async () => {
    const dir = await project();
    await mkdir(join(root(), "config", "mca"), { recursive: true });
    await writeFile(pinsFile(env()), '{"projects":{"/p":{"notes":{"tools":{"search":1}}}}}');
    const read = readPins(dir, env());
    expect(read).toBeInstanceOf(ConfigError);
    expect(read instanceof ConfigError && read.message).toBe(`${pinsFile(env())}:1:47: projects["/p"].notes.tools.search: must be a string, not a number`);
  });
});
