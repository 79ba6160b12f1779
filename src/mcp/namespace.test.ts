import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { aliasOverlapWarnings, buildNamespace, sanitizeAlias, toolPrefix } from "./namespace.js";

function sha1Hex6(text: string): string {
  return createHash("sha1").update(text, "utf8").digest("hex").slice(0, 6);
}

/** The documented suffixed form, computed independently of the module. */
function suffixed(plain: string, alias: string, tool: string): string {
  return `${plain.slice(0, 57)}_${sha1Hex6(`${alias}::${tool}`)}`;
}

describe("sanitizeAlias", () => {
  it("keeps letters, digits, underscore and hyphen", () => {
    expect(sanitizeAlias("My-server_2")).toBe("My-server_2");
  });

  it("replaces every other character, one underscore per code point", () => {
    expect(sanitizeAlias("my.server 🚀/é")).toBe("my_server____");
  });
});

describe("toolPrefix", () => {
  it("is mcp__, the sanitised alias and __", () => {
    expect(toolPrefix("my.server")).toBe("mcp__my_server__");
  });
});

describe("buildNamespace", () => {
  it("names a short tool mcp__<alias>__<tool>", () => {
    const namespace = buildNamespace([{ alias: "notes", tool: "search" }]);
    expect(namespace.entries()).toEqual([{ alias: "notes", tool: "search", flatName: "mcp__notes__search" }]);
  });

  it("suffixes a tool whose flat name is reserved for calls that reach its server, however it is spelt", () => {
    const namespace = buildNamespace([{ alias: "notes", tool: "read_resource" }, { alias: "notes", tool: "read resource" }, { alias: "notes", tool: "search" }], ["read_resource"]);
    const names = namespace.entries().map((entry) => entry.flatName);
    expect({ reserved: names.filter((name) => name === "mcp__notes__read_resource"), suffixed: names.filter((name) => /^mcp__notes__read_resource_[0-9a-f]{6}$/u.test(name)).length, search: names.includes("mcp__notes__search") }).toEqual({ reserved: [], suffixed: 2, search: true });
  });

  it("replaces characters outside [A-Za-z0-9_-] in alias and tool", () => {
    const namespace = buildNamespace([{ alias: "my.server", tool: "files/read v2" }]);
    expect(namespace.entries()).toEqual([
      { alias: "my.server", tool: "files/read v2", flatName: "mcp__my_server__files_read_v2" },
    ]);
  });

  it("keeps a name of exactly 64 characters as it is", () => {
    const tool = "t".repeat(64 - "mcp__notes__".length);
    expect(buildNamespace([{ alias: "notes", tool }]).flatName("notes", tool)).toBe(`mcp__notes__${tool}`);
  });

  it("cuts a longer name to 57 characters, `_` and 6 hex characters of the SHA-1 of alias::tool", () => {
    const tool = "t".repeat(65 - "mcp__notes__".length);
    const name = buildNamespace([{ alias: "notes", tool }]).flatName("notes", tool);
    expect(name).toBe(`${`mcp__notes__${tool}`.slice(0, 57)}_${sha1Hex6(`notes::${tool}`)}`);
    expect(name).toHaveLength(64);
  });

  it("hashes the original alias and tool, not the sanitised ones", () => {
    const tool = `a.${"x".repeat(70)}`;
    const name = buildNamespace([{ alias: "my.server", tool }]).flatName("my.server", tool);
    expect(name).toBe(suffixed(`mcp__my_server__a_${"x".repeat(70)}`, "my.server", tool));
  });

  it("keeps two long names with the same first 57 characters distinct", () => {
    const stem = "s".repeat(60);
    const namespace = buildNamespace([
      { alias: "notes", tool: `${stem}_one` },
      { alias: "notes", tool: `${stem}_two` },
    ]);
    expect(namespace.entries()).toEqual([
      { alias: "notes", tool: `${stem}_one`, flatName: suffixed(`mcp__notes__${stem}_one`, "notes", `${stem}_one`) },
      { alias: "notes", tool: `${stem}_two`, flatName: suffixed(`mcp__notes__${stem}_two`, "notes", `${stem}_two`) },
    ]);
  });

  it("suffixes every name that collides after sanitising, whatever the input order", () => {
    const expected = [
      { alias: "srv", tool: "a.b", flatName: suffixed("mcp__srv__a_b", "srv", "a.b") },
      { alias: "srv", tool: "a_b", flatName: suffixed("mcp__srv__a_b", "srv", "a_b") },
    ];
    const forward = buildNamespace([
      { alias: "srv", tool: "a.b" },
      { alias: "srv", tool: "a_b" },
    ]);
    const backward = buildNamespace([
      { alias: "srv", tool: "a_b" },
      { alias: "srv", tool: "a.b" },
    ]);
    expect(forward.entries()).toEqual(expected);
    expect(backward.entries()).toEqual(expected);
  });

  it("names the tools of one server that collide once sanitised, and not those of different servers", () => {
    const namespace = buildNamespace([
      { alias: "evil", tool: "delete all" },
      { alias: "evil", tool: "delete_all" },
      { alias: "evil", tool: "list" },
      { alias: "a__b", tool: "c" },
      { alias: "a", tool: "b__c" },
    ]);
    expect(namespace.sanitisingCollisions()).toEqual([
      [
        { alias: "evil", tool: "delete all", flatName: suffixed("mcp__evil__delete_all", "evil", "delete all") },
        { alias: "evil", tool: "delete_all", flatName: suffixed("mcp__evil__delete_all", "evil", "delete_all") },
      ],
    ]);
    expect(buildNamespace([{ alias: "evil", tool: "list" }]).sanitisingCollisions()).toEqual([]);
  });

  it("gives 150,000 tools that all sanitise to one name 150,000 flat names, and reports them as one group", () => {
    // Every 9-character string over four characters the flat names do not allow: 262,144 tools, one plain name.
    const symbols = [".", "/", " ", "!"];
    const tools = Array.from({ length: 150_000 }, (_, index) =>
      Array.from({ length: 9 }, (_, digit) => symbols[Math.floor(index / 4 ** digit) % 4]).join(""),
    );
    const namespace = buildNamespace(tools.map((tool) => ({ alias: "evil", tool })));
    const flatNames = new Set(namespace.entries().map((entry) => entry.flatName));
    const groups = namespace.sanitisingCollisions();
    expect({ flatNames: flatNames.size, groups: groups.length, members: groups[0]?.length }).toEqual({ flatNames: 150_000, groups: 1, members: 150_000 });
  });

  it("suffixes names of different servers that join to the same string", () => {
    const namespace = buildNamespace([
      { alias: "a__b", tool: "c" },
      { alias: "a", tool: "b__c" },
    ]);
    expect(namespace.entries()).toEqual([
      { alias: "a", tool: "b__c", flatName: suffixed("mcp__a__b__c", "a", "b__c") },
      { alias: "a__b", tool: "c", flatName: suffixed("mcp__a__b__c", "a__b", "c") },
    ]);
  });

  it("leaves a suffixed name alone when a plain name happens to equal it", () => {
    const long = "l".repeat(70);
    const takenName = suffixed(`mcp__notes__${long}`, "notes", long);
    const impostor = takenName.slice("mcp__notes__".length);
    const namespace = buildNamespace([
      { alias: "notes", tool: long },
      { alias: "notes", tool: impostor },
    ]);
    expect(namespace.flatName("notes", long)).toBe(takenName);
    expect(namespace.flatName("notes", impostor)).toBe(suffixed(takenName, "notes", impostor));
  });

  it("salts the hash when two suffixed names agree in prefix and all 6 hex characters", () => {
    const stem = "h".repeat(60);
    const seen = new Map<string, string>();
    let pair: [string, string] | undefined;
    for (let index = 0; pair === undefined && index < 1_000_000; index++) {
      const tool = `${stem}${index}`;
      const hash = sha1Hex6(`notes::${tool}`);
      const earlier = seen.get(hash);
      if (earlier === undefined) seen.set(hash, tool);
      else pair = [earlier, tool];
    }
    if (pair === undefined) throw new Error("no 24-bit hash collision found");
    const [first, second] = pair;
    const namespace = buildNamespace([
      { alias: "notes", tool: first },
      { alias: "notes", tool: second },
    ]);
    const salted = (tool: string): string =>
      `${`mcp__notes__${tool}`.slice(0, 57)}_${sha1Hex6(`notes::${tool}::1`)}`;
    expect(namespace.flatName("notes", first)).toBe(salted(first));
    expect(namespace.flatName("notes", second)).toBe(salted(second));
    expect(salted(first)).not.toBe(salted(second));
  });

  it("maps every flat name back to its alias and tool", () => {
    const refs = [
      { alias: "notes", tool: "search" },
      { alias: "tickets", tool: "search" },
      { alias: "srv", tool: "a.b" },
      { alias: "srv", tool: "a_b" },
      { alias: "notes", tool: "x".repeat(90) },
    ];
    const namespace = buildNamespace(refs);
    expect(namespace.entries()).toHaveLength(refs.length);
    for (const { alias, tool } of refs) {
      expect(namespace.lookup(namespace.flatName(alias, tool))).toEqual({ alias, tool });
    }
  });

  it("gives undefined for a name that is not in the table, even one that splits neatly", () => {
    const namespace = buildNamespace([{ alias: "notes", tool: "search" }]);
    expect(namespace.lookup("mcp__notes__list")).toBeUndefined();
    expect(namespace.lookup("mcp__tickets__search")).toBeUndefined();
  });

  it("throws when asked for the flat name of a tool it was not given", () => {
    const namespace = buildNamespace([{ alias: "notes", tool: "search" }]);
    expect(() => namespace.flatName("notes", "list")).toThrow('tool "list" of "notes" is not in the namespace');
  });

  it("keeps an identical alias and tool pair once", () => {
    const namespace = buildNamespace([
      { alias: "notes", tool: "search" },
      { alias: "notes", tool: "search" },
    ]);
    expect(namespace.entries()).toEqual([{ alias: "notes", tool: "search", flatName: "mcp__notes__search" }]);
  });
});

describe("aliasOverlapWarnings", () => {
  it("names each pair of servers whose tool prefixes run into each other, as written, once and in a stable order", () => {
    const warnings = aliasOverlapWarnings(["tickets", "notes_", "a_b", "notes", "a.b", "notes__x", "notes-x", "notes", "a"]);
    expect(warnings).toEqual([
      'servers "a.b" and "a_b" share the tool prefix mcp__a_b__: their tools look alike, and a rule that begins mcp__a_b__ reaches both (rename one)',
      'the tool prefix of server "notes_" (mcp__notes___) begins with that of server "notes" (mcp__notes__): their tools look alike; a rule mcp__notes__* reaches only "notes", but mcp__notes_* reaches both (rename one)',
      'the tool prefix of server "notes__x" (mcp__notes__x__) begins with that of server "notes" (mcp__notes__): their tools look alike; a rule mcp__notes__* reaches only "notes", but mcp__notes_* reaches both (rename one)',
    ]);
    expect(aliasOverlapWarnings(["notes__x", "a", "a.b", "notes", "notes-x", "a_b", "notes_", "tickets"])).toEqual(warnings);
  });

  it("finds every server whose prefix begins with another's, however many lie between them", () => {
    const pairs = aliasOverlapWarnings(["a", "a__b", "a__b__c", "a__a"]).map((line) => [...line.matchAll(/server "([^"]*)"/gu)].map((match) => match[1]));
    expect(pairs).toEqual([
      ["a__a", "a"],
      ["a__b", "a"],
      ["a__b__c", "a"],
      ["a__b__c", "a__b"],
    ]);
  });

  it("passes an alias's own text through unchanged, for the caller to show as untrusted", () => {
    expect(aliasOverlapWarnings(["x\u001b", "x_"])).toEqual([
      'servers "x\u001b" and "x_" share the tool prefix mcp__x___: their tools look alike, and a rule that begins mcp__x___ reaches both (rename one)',
    ]);
  });

  it("says nothing of aliases that only begin alike", () => {
    expect(aliasOverlapWarnings(["notes", "notes-x", "notesx", "note"])).toEqual([]);
  });
});
