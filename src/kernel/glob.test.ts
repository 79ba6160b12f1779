import { describe, expect, it } from "vitest";
import { globMatches } from "./glob.js";

describe("globMatches", () => {
  it("matches any run of characters with *, including none", () => {
    expect(globMatches("mcp__notes__*", "mcp__notes__search")).toBe(true);
    expect(globMatches("mcp__notes__*", "mcp__notes__")).toBe(true);
    expect(globMatches("mcp__notes__*", "mcp__tickets__search")).toBe(false);
  });

  it("matches exactly one character with ?", () => {
    expect(globMatches("read_fil?", "read_file")).toBe(true);
    expect(globMatches("read_fil?", "read_fil")).toBe(false);
    expect(globMatches("read_fil?", "read_filed")).toBe(false);
  });

  it("matches the whole text, not a part of it", () => {
    expect(globMatches("git status", "git status -s")).toBe(false);
    expect(globMatches("status*", "git status")).toBe(false);
  });

  it("takes regular-expression characters literally", () => {
    expect(globMatches("a.b(c)[d]+$", "a.b(c)[d]+$")).toBe(true);
    expect(globMatches("a.b", "axb")).toBe(false);
    expect(globMatches("mcp__my-server__*", "mcp__my-server__x")).toBe(true);
  });

  it("lets * cross slashes and newlines", () => {
    expect(globMatches("/src/*", "/src/a/b.ts")).toBe(true);
    expect(globMatches("echo *", "echo a\nb")).toBe(true);
  });
});
