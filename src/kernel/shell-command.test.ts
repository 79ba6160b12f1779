import { describe, expect, it } from "vitest";
import { commandForms, isPlainCommand, MAX_WRAPPERS } from "./shell-command.js";

describe("isPlainCommand", () => {
  it("accepts words of the plain characters separated by single spaces", () => {
    expect(isPlainCommand("git log --format=%h -n 5 origin/main..HEAD a,b user@host:x +1")).toBe(true);
  });

  it("refuses every character bash gives a meaning to, and whitespace other than single spaces", () => {
    for (const special of ["$", "`", "'", '"', "\\", "*", "?", "[", "]", "{", "}", "~", "<", ">", "|", "&", ";", "(", ")", "#", "!", "\t", "\n", "  "]) {
      expect([special, isPlainCommand(`ls a${special}b`)]).toEqual([special, false]);
    }
    expect(isPlainCommand(" ls")).toBe(false);
    expect(isPlainCommand("ls ")).toBe(false);
    expect(isPlainCommand("")).toBe(false);
  });
});

describe("commandForms", () => {
  it("gives the line as written and each simple command with single spaces", () => {
    expect([...commandForms("ls  -l;\trm   x").forms]).toEqual(["ls  -l;\trm   x", "ls -l", "rm x"]);
  });

  it("takes off the assignments and redirections before each wrapper and the program, and adds the program's base name", () => {
    expect(commandForms("X=1 > out sudo -u root /usr/bin/env -i A=b nice -n 5 /bin/rm -rf x")).toEqual({
      forms: new Set([
        "X=1 > out sudo -u root /usr/bin/env -i A=b nice -n 5 /bin/rm -rf x",
        "sudo -u root /usr/bin/env -i A=b nice -n 5 /bin/rm -rf x",
        "/usr/bin/env -i A=b nice -n 5 /bin/rm -rf x",
        "env -i A=b nice -n 5 /bin/rm -rf x",
        "nice -n 5 /bin/rm -rf x",
        "/bin/rm -rf x",
        "rm -rf x",
      ]),
      tooDeep: false,
    });
  });

  it("reads the inside of substitutions and the line without its quotes and backslashes", () => {
    expect(commandForms("echo \"$(r'm' x)\"").forms).toContain("rm x");
    expect(commandForms("echo `\\rm x`").forms).toContain("rm x");
    expect(commandForms("r\\\nm x").forms).toContain("rm x");
  });

  it("makes few forms of a command with thousands of assignments before the wrappers and the program, each wrapper's among them", () => {
    const { forms, tooDeep } = commandForms(`${"X=1 ".repeat(25_000)}nice ${"Y=2 ".repeat(100)}sudo /bin/rm x`);
    expect([forms.size, forms.has("nice Y=2 Y=2"), forms.has(`sudo /bin/rm x`), forms.has("rm x"), tooDeep]).toEqual([5, false, true, true, false]);
  });

  it("says a command that nests more than MAX_WRAPPERS wrappers is too deep", () => {
    expect(commandForms(`${"nice ".repeat(MAX_WRAPPERS)}rm x`).tooDeep).toBe(false);
    expect(commandForms(`${"nice ".repeat(MAX_WRAPPERS + 1)}rm x`).tooDeep).toBe(true);
  });

  it("reads timeout's command after its options and its duration, and xargs' after its options", () => {
    expect([
      commandForms("timeout -s KILL 5 rm -rf x").forms.has("rm -rf x"),
      commandForms("timeout --signal=KILL -k 1 -- 5 /bin/rm x").forms.has("rm x"),
      commandForms("xargs -I {} -n 1 rm {}").forms.has("rm {}"),
    ]).toEqual([true, true, true]);
  });

  it("counts timeout among the wrappers a command may nest", () => {
    expect(commandForms(`${"timeout 1 ".repeat(MAX_WRAPPERS + 1)}rm x`).tooDeep).toBe(true);
  });

  it("keeps an unknown program's arguments as they are", () => {
    expect([...commandForms("git -c a=b status").forms]).toEqual(["git -c a=b status"]);
  });
});
