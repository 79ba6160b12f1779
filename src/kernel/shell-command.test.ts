import { describe, expect, it } from "vitest";
import { commandForms, isPlainCommand } from "./shell-command.js";

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
    expect([...commandForms("ls  -l;\trm   x")]).toEqual(["ls  -l;\trm   x", "ls -l", "rm x"]);
  });

  it("takes off assignments, redirections and wrappers one at a time, and adds the program's base name", () => {
    expect([...commandForms("X=1 > out sudo -u root /usr/bin/env -i A=b nice -n 5 /bin/rm -rf x")]).toEqual([
      "X=1 > out sudo -u root /usr/bin/env -i A=b nice -n 5 /bin/rm -rf x",
      "> out sudo -u root /usr/bin/env -i A=b nice -n 5 /bin/rm -rf x",
      "sudo -u root /usr/bin/env -i A=b nice -n 5 /bin/rm -rf x",
      "/usr/bin/env -i A=b nice -n 5 /bin/rm -rf x",
      "env -i A=b nice -n 5 /bin/rm -rf x",
      "A=b nice -n 5 /bin/rm -rf x",
      "nice -n 5 /bin/rm -rf x",
      "/bin/rm -rf x",
      "rm -rf x",
    ]);
  });

  it("reads the inside of substitutions and the line without its quotes and backslashes", () => {
    expect(commandForms("echo \"$(r'm' x)\"")).toContain("rm x");
    expect(commandForms("echo `\\rm x`")).toContain("rm x");
    expect(commandForms("r\\\nm x")).toContain("rm x");
  });

  it("makes a bounded number of forms of a command with thousands of words before the program, the program's own among them", () => {
    const forms = commandForms(`${"X=1 ".repeat(25_000)}nice /bin/rm x`);
    expect([forms.size, forms.has("rm x"), forms.has("/bin/rm x"), forms.has("nice /bin/rm x")]).toEqual([32 + 2, true, true, false]);
  });

  it("keeps an unknown program's arguments as they are", () => {
    expect([...commandForms("git -c a=b status")]).toEqual(["git -c a=b status"]);
  });
});
