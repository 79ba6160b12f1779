import { chmodSync, existsSync, mkdirSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readOnlyLayout, removePlaceholders, type GuardedPlace } from "./read-only-places.js";
import { tempProjectPerTest } from "./test-support/temp-project.js";

const folder = (path: string): GuardedPlace => ({ path, absent: "folder" });
const file = (path: string): GuardedPlace => ({ path, absent: "file" });

describe("readOnlyLayout", () => {
  const temp = tempProjectPerTest("mca-read-only-");
  const root = (): string => realpathSync(temp());

  it("binds a present place and pins every folder between its writable folder and it", () => {
    mkdirSync(join(root(), "vendor", "lib", ".git"), { recursive: true });
    expect(readOnlyLayout([root()], [folder(join(root(), "vendor", "lib", ".git"))])).toEqual({
      pinned: [join(root(), "vendor"), join(root(), "vendor", "lib")],
      readOnly: [{ kind: "bind", path: join(root(), "vendor", "lib", ".git") }],
      unguarded: [],
    });
  });

  it("holds an absent place with a placeholder of its shape, at its first missing folder when folders above it are missing too", () => {
    mkdirSync(join(root(), "src"));
    writeFileSync(join(root(), "src", "a.ts"), "");
    const places = [file(join(root(), ".gitmodules")), folder(join(root(), ".mca")), file(join(root(), "src", "deep", "er", "x.inc"))];
    expect(readOnlyLayout([root()], places)).toEqual({
      pinned: [join(root(), "src")],
      readOnly: [
        { kind: "placeholder", path: join(root(), ".gitmodules"), shape: "file" },
        { kind: "placeholder", path: join(root(), ".mca"), shape: "folder" },
        { kind: "placeholder", path: join(root(), "src", "deep"), shape: "folder" },
      ],
      unguarded: [],
    });
  });

  it("makes an empty folder read-only whole rather than put a placeholder in it (an uninitialised submodule's)", () => {
    mkdirSync(join(root(), "libs", "sub"), { recursive: true });
    expect(readOnlyLayout([root()], [folder(join(root(), "libs", "sub", ".git"))])).toEqual({
      pinned: [join(root(), "libs")],
      readOnly: [{ kind: "bind", path: join(root(), "libs", "sub") }],
      unguarded: [],
    });
  });

  it("leaves out what an absent place needs nothing for, what is outside every writable folder, a writable folder itself, and what a read-only place already holds", () => {
    mkdirSync(join(root(), ".git", "hooks"), { recursive: true });
    mkdirSync(join(root(), "p"));
    const places = [{ path: join(root(), "p", ".husky"), absent: null }, folder("/usr/lib/mca"), folder(join(root(), "p")), folder(join(root(), ".git", "hooks")), folder(join(root(), ".git"))];
    expect(readOnlyLayout([join(root(), "p")], places)).toEqual({ pinned: [], readOnly: [], unguarded: [] });
    expect(readOnlyLayout([root()], places)).toEqual({ pinned: [], readOnly: [{ kind: "bind", path: join(root(), ".git") }, { kind: "bind", path: join(root(), "p") }], unguarded: [] });
  });

  it("drops only what another place holds, whatever sorts between a folder and what is inside it", () => {
    for (const path of ["a/b/c", "a-b", "a.b", "ab"]) mkdirSync(join(root(), path), { recursive: true });
    const places = ["a/b/c", "a-b", "a/b", "a.b", "ab", "a"].map((path) => folder(join(root(), path)));
    expect(readOnlyLayout([root()], places).readOnly).toEqual(["a", "a-b", "a.b", "ab"].map((path) => ({ kind: "bind", path: join(root(), path) })));
  });

  it("pins from the innermost writable folder that holds a place", () => {
    mkdirSync(join(root(), "home", "p", "a", ".git"), { recursive: true });
    expect(readOnlyLayout([join(root(), "home"), join(root(), "home", "p")], [folder(join(root(), "home", "p", "a", ".git"))]).pinned).toEqual([join(root(), "home", "p", "a")]);
  });

  it("follows symbolic links to the place, makes the folder holding a link read-only, and names a link in a writable folder itself", () => {
    mkdirSync(join(root(), "real", "mca"), { recursive: true });
    mkdirSync(join(root(), "config"));
    writeFileSync(join(root(), "config", "other.json"), "{}");
    symlinkSync(join(root(), "real", "mca"), join(root(), "config", "mca"));
    symlinkSync("missing-target", join(root(), ".mca"));
    expect(readOnlyLayout([root()], [folder(join(root(), "config", "mca")), folder(join(root(), ".mca"))])).toEqual({
      pinned: [join(root(), "real")],
      readOnly: [
        { kind: "bind", path: join(root(), "config") },
        { kind: "placeholder", path: join(root(), "missing-target"), shape: "folder" },
        { kind: "bind", path: join(root(), "real", "mca") },
      ],
      unguarded: [join(root(), ".mca")],
    });
  });

  it("binds a file on the way to a place, which a command could otherwise swap for a folder", () => {
    writeFileSync(join(root(), "sub"), "");
    expect(readOnlyLayout([root()], [folder(join(root(), "sub", ".git"))]).readOnly).toEqual([{ kind: "bind", path: join(root(), "sub") }]);
  });

  it("puts no placeholder where this user cannot create one", () => {
    mkdirSync(join(root(), "locked"));
    writeFileSync(join(root(), "locked", "x"), "");
    chmodSync(join(root(), "locked"), 0o555);
    const layout = readOnlyLayout([root()], [folder(join(root(), "locked", ".git"))]);
    chmodSync(join(root(), "locked"), 0o755);
    // root may write anywhere: then the placeholder is there.
    expect(layout.readOnly).toEqual(process.getuid?.() === 0 ? [{ kind: "placeholder", path: join(root(), "locked", ".git"), shape: "folder" }] : []);
  });
});

describe("removePlaceholders", () => {
  const temp = tempProjectPerTest("mca-placeholders-");

  it("removes the empty folders and files made for placeholders, and leaves what holds something or is of another shape", () => {
    const root = realpathSync(temp());
    mkdirSync(join(root, "empty"));
    mkdirSync(join(root, "full"));
    writeFileSync(join(root, "full", "kept"), "");
    writeFileSync(join(root, "empty-file"), "");
    writeFileSync(join(root, "written"), "x");
    symlinkSync(join(root, "full"), join(root, "link"));
    const placeholders = ["empty", "full", "link"].map((name) => ({ kind: "placeholder" as const, path: join(root, name), shape: "folder" as const }));
    const files = ["empty-file", "written", "absent"].map((name) => ({ kind: "placeholder" as const, path: join(root, name), shape: "file" as const }));
    removePlaceholders({ pinned: [], readOnly: [...placeholders, ...files, { kind: "bind", path: join(root, "full") }], unguarded: [] });
    expect(["empty", "full", "link", "empty-file", "written"].map((name) => existsSync(join(root, name)))).toEqual([false, true, true, false, true]);
  });
});
