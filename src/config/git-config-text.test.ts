import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { coreHooksPath } from "./git-config-text.js";

/** git with no user or system config, so only the file given counts. */
function git(cwd: string, ...args: string[]): string {
  const env = { ...process.env, GIT_CONFIG_NOSYSTEM: "1", GIT_CONFIG_GLOBAL: "/dev/null" };
  return execFileSync("git", args, { cwd, env, encoding: "utf8" });
}

describe("coreHooksPath", () => {
  // Each text with the value git itself reads from it (checked against `git config --file` below).
  const cases: readonly (readonly [string, string | undefined])[] = [
    ["[core]\n\thooksPath = .githooks\n", ".githooks"],
    ["[Core]\n\tHOOKSPATH=x", "x"],
    ['[core] hooksPath = "  spaced dir " ; comment\n', "  spaced dir "],
    ["[core]\n hooksPath = a b\t c # note\n", "a b  c"],
    ['[core]\nhooksPath = "a\\"b\\\\c#d"\n', 'a"b\\c#d'],
    ["[core]\nhooksPath = one\\\n two\n", "one two"],
    ["[core]\r\nhooksPath = crlf\r\n", "crlf"],
    ["[core]\nhooksPath = first\nbare = false\n[user]\nname = x\n[core]\nhooksPath = second\n", "second"],
    ['[core "x"]\nhooksPath = no\n[core.y]\nhooksPath = no\n[include]\npath = z\n[hooks]\nhooksPath = no\n', undefined],
    ["# [core]\n; hooksPath = no\n[core]\nhooksPathx = no\nxhooksPath = no\n", undefined],
  ];

  it("reads the last hooksPath of the [core] section as git does", () => {
    expect(cases.map(([text]) => coreHooksPath(text))).toEqual(cases.map(([, value]) => value));
  });

  it("agrees with git config --file on each of those texts", () => {
    const dir = mkdtempSync(join(tmpdir(), "mca-gitconfig-"));
    try {
      const read = cases.map(([text], index) => {
        const file = join(dir, `config-${index}`);
        writeFileSync(file, text);
        try {
          return git(dir, "config", "--file", file, "core.hooksPath").replace(/\n$/u, "");
        } catch {
          return undefined;
        }
      });
      expect(read).toEqual(cases.map(([, value]) => value));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("skips a value git refuses and keeps the one before", () => {
    const broken = ['[core]\nhooksPath = ok\nhooksPath = "unterminated\n', "[core]\nhooksPath = ok\nhooksPath = a\\qb\n", "[core]\nhooksPath = ok\nhooksPath\n"];
    expect(broken.map(coreHooksPath)).toEqual(["ok", "ok", "ok"]);
  });
});
