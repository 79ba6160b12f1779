import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { MAX_RESULT_CHARS } from "../kernel/index.js";
import { compileGlob, createSearchTool } from "./search.js";
import { bytesReadDuring, MiB } from "./test-support/bytes-read.js";
import { callTool } from "./test-support/call-tool.js";
import { tempProjectPerTest } from "./test-support/temp-project.js";

const context = { signal: new AbortController().signal };

describe("search", () => {
  const project = tempProjectPerTest("mca-search-");

  const write = (path: string, content: string | Buffer) => {
    mkdirSync(dirname(join(project(), path)), { recursive: true });
    writeFileSync(join(project(), path), content);
  };
  const search = (args: Record<string, unknown>) => callTool(createSearchTool(project()), args, context);

  it("returns file:line: text for each matching line, skipping .git and node_modules", async () => {
    write("src/a.ts", "const x = 1;\n// TODO: fix\n");
    write("b.md", "TODO later\n");
    write(".git/config", "TODO in git\n");
    write("node_modules/pkg/index.js", "TODO in deps\n");
    expect(await search({ pattern: "TODO" })).toEqual({
      text: "b.md:1: TODO later\nsrc/a.ts:2: // TODO: fix",
      isError: false,
    });
  });

  it("filters files with a glob on the base name or on the path", async () => {
    write("src/a.ts", "hit\n");
    write("src/deep/b.ts", "hit\n");
    write("src/c.js", "hit\n");
    expect((await search({ pattern: "hit", glob: "*.ts" })).text).toBe("src/a.ts:1: hit\nsrc/deep/b.ts:1: hit");
    expect((await search({ pattern: "hit", glob: "src/*.{js,ts}" })).text).toBe("src/a.ts:1: hit\nsrc/c.js:1: hit");
  });

  it("narrows the search to a folder or a single file", async () => {
    write("src/a.ts", "hit\n");
    write("lib/b.ts", "hit\n");
    expect((await search({ pattern: "hit", path: "lib" })).text).toBe("lib/b.ts:1: hit");
    expect((await search({ pattern: "hit", path: "src/a.ts" })).text).toBe("src/a.ts:1: hit");
  });

  it("treats a leading (?i) as case-insensitive", async () => {
    write("a.txt", "Hello\n");
    expect((await search({ pattern: "(?i)hello" })).text).toBe("a.txt:1: Hello");
    expect((await search({ pattern: "hello" })).text).toBe("no matches for /hello/ in .");
  });

  it("skips binary files and searches a text file of any size", async () => {
    write("blob.bin", Buffer.concat([Buffer.from("needle"), Buffer.from([0])]));
    write("big.txt", `${"x".repeat(1024 * 1024)}\nneedle\n`);
    expect(await search({ pattern: "needle" })).toEqual({ text: "big.txt:2: needle", isError: false });
  });

  it("answers from the start of a 2 GB file, reading no more than 4 MiB of it", async () => {
    // 10,000 matching lines, then a sparse tail: the file is 2 GB but costs no disk.
    const head = Array.from({ length: 10_000 }, (_, i) => `needle ${i}`).join("\n");
    write("huge.log", `${head}\n`);
    truncateSync(join(project(), "huge.log"), 2 * 1024 ** 3);
    const { result, bytes } = await bytesReadDuring(() => search({ pattern: "needle" }));
    const lines = result.text.split("\n");
    expect({ lines: lines.length, last: lines[200], withinFourMiB: bytes <= 4 * MiB }).toEqual({
      lines: 201,
      last: "[stopped at 200 matches; narrow the pattern, path or glob]",
      withinFourMiB: true,
    });
  });

  it("stops at the result budget before the match cap when lines are long", async () => {
    write("wide.txt", Array.from({ length: 100 }, (_, i) => `${i} ${"w".repeat(200)}`).join("\n"));
    const result = await search({ pattern: "w" });
    // Within the budget, so the kernel's cut never takes the last line away.
    expect(result.text.length).toBeLessThanOrEqual(MAX_RESULT_CHARS);
    const lines = result.text.split("\n");
    expect(lines.at(-1)).toBe("[stopped at 8000 characters of results; narrow the pattern, path or glob]");
    expect(lines.length).toBeLessThan(50);
  });

  it("stops a catastrophic pattern at its time limit, naming the limit, while timers keep firing", async () => {
    write("evil.txt", `${"a".repeat(40)}!\n`);
    // The match never ends by itself (2^40 ways to split the a's): what ends it is the limit. A timer fires
    // meanwhile only if the match runs off the main thread.
    let ticks = 0;
    const ticker = setInterval(() => {
      ticks += 1;
    }, 20);
    let result;
    try {
      result = await callTool(createSearchTool(project(), { timeLimitMs: 500 }), { pattern: "(a+)+$" }, context);
    } finally {
      clearInterval(ticker);
    }
    expect(ticks).toBeGreaterThan(0);
    expect(result).toEqual({
      text:
        "search stopped at its time limit of 0.5 seconds: the pattern may backtrack catastrophically (nested " +
        "repetition like (a+)+), or there was too much to search; simplify the pattern or narrow path or glob. " +
        "No matches before it stopped.",
      isError: true,
    });
  });

  it("settles as aborted when aborted during a catastrophic match, long before its time limit", async () => {
    write("evil.txt", `${"a".repeat(40)}!\n`);
    // The limit (a minute) is beyond the test's own: only the abort can end this search in time.
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 300);
    const result = await callTool(createSearchTool(project(), { timeLimitMs: 60_000 }), { pattern: "(a+)+$" }, {
      signal: controller.signal,
    });
    expect(result).toEqual({ text: "search aborted", isError: true });
  });

  it("states its time limit in its description", () => {
    expect(createSearchTool(project()).description).toContain("limited to 5 seconds");
  });

  it("passes over named pipes in a folder and refuses one named as the path", async () => {
    write("a.txt", "hit\n");
    execFileSync("mkfifo", [join(project(), "pipe")]);
    expect(await search({ pattern: "hit" })).toEqual({ text: "a.txt:1: hit", isError: false });
    expect(await search({ pattern: "hit", path: "pipe" })).toEqual({ text: "pipe is not a regular file or a folder", isError: true });
  });

  it("does not follow symbolic links", async () => {
    const outside = mkdtempSync(join(tmpdir(), "mca-search-outside-"));
    try {
      writeFileSync(join(outside, "secret.txt"), "needle\n");
      symlinkSync(outside, join(project(), "linked"));
      expect((await search({ pattern: "needle" })).text).toBe("no matches for /needle/ in .");
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  });

  it("stops at 200 matches and says so", async () => {
    write("many.txt", Array.from({ length: 250 }, (_, i) => `match ${i}`).join("\n"));
    const lines = (await search({ pattern: "match" })).text.split("\n");
    expect(lines).toHaveLength(201);
    expect(lines[199]).toBe("many.txt:200: match 199");
    expect(lines[200]).toBe("[stopped at 200 matches; narrow the pattern, path or glob]");
  });

  it("reports an invalid regular expression as an error result", async () => {
    const result = await search({ pattern: "(unclosed" });
    expect(result.isError).toBe(true);
    expect(result.text).toMatch(/^invalid regular expression: /);
  });

  it("refuses a path outside the project folder", async () => {
    expect(await search({ pattern: "x", path: "../" })).toEqual({
      text: `path ../ is outside the project folder ${project()}`,
      isError: true,
    });
  });

  it("stops when aborted", async () => {
    write("a.txt", "hit\n");
    const controller = new AbortController();
    controller.abort();
    const result = await callTool(createSearchTool(project()), { pattern: "hit" }, { signal: controller.signal });
    expect(result).toEqual({ text: "search aborted", isError: true });
  });
});

describe("compileGlob", () => {
  it("matches a glob without a slash against the base name at any depth", () => {
    const accepts = compileGlob("*.ts");
    expect(["a.ts", "src/deep/b.ts", "a.tsx", "src/ts"].map(accepts)).toEqual([true, true, false, false]);
  });

  it("keeps * inside one folder and lets **/ span folders", () => {
    expect(["src/a.ts", "src/x/a.ts"].map(compileGlob("src/*.ts"))).toEqual([true, false]);
    expect(["src/a.ts", "src/x/y/a.ts", "lib/a.ts"].map(compileGlob("src/**/*.ts"))).toEqual([true, true, false]);
  });

  it("supports ? and {a,b} and treats other characters literally", () => {
    expect(["a1.js", "ab.ts", "a.md", "a12.js"].map(compileGlob("a?.{js,ts}"))).toEqual([true, true, false, false]);
    expect(["a+b.txt", "aab.txt"].map(compileGlob("a+b.txt"))).toEqual([true, false]);
  });
});
