import { execFileSync } from "node:child_process";
import { mkdirSync, truncateSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { MAX_RESULT_CHARS } from "../kernel/index.js";
import { createReadFileTool } from "./read-file.js";
import { bytesReadDuring, MiB } from "./test-support/bytes-read.js";
import { callTool } from "./test-support/call-tool.js";
import { tempProjectPerTest } from "./test-support/temp-project.js";

const context = { signal: new AbortController().signal };

describe("read_file", () => {
  const project = tempProjectPerTest("mca-read-");

  const read = (args: Record<string, unknown>) => callTool(createReadFileTool(project()), args, context);

  it("returns the whole file as numbered lines", async () => {
    writeFileSync(join(project(), "a.txt"), "alpha\nbeta\ngamma\n");
    expect(await read({ path: "a.txt" })).toEqual({ text: "1\talpha\n2\tbeta\n3\tgamma", isError: false });
  });

  it("returns a window from a 1-based offset and says where to continue", async () => {
    writeFileSync(join(project(), "a.txt"), "l1\nl2\nl3\nl4\nl5\n");
    expect(await read({ path: "a.txt", offset: 2, limit: 2 })).toEqual({
      text: "2\tl2\n3\tl3\n[lines 2-3 of 5; continue with offset 4]",
      isError: false,
    });
  });

  it("ends the window before the result budget and says where to continue", async () => {
    const lines = Array.from({ length: 2_500 }, (_, i) => `line ${i + 1}`);
    writeFileSync(join(project(), "long.txt"), lines.join("\n"));
    const result = await read({ path: "long.txt" });
    expect(result.text.length).toBeLessThanOrEqual(MAX_RESULT_CHARS);
    const shown = result.text.split("\n");
    const last = shown.length - 1;
    expect(shown.slice(0, last)).toEqual(lines.slice(0, last).map((line, i) => `${i + 1}\t${line}`));
    expect(shown[last]).toBe(`[lines 1-${last} of 2500; continue with offset ${last + 1}]`);
  });

  it("cuts a very long line and marks it", async () => {
    writeFileSync(join(project(), "min.js"), `${"m".repeat(5_000)}\nnext\n`);
    expect(await read({ path: "min.js" })).toEqual({ text: `1\t${"m".repeat(2_000)}… [line cut]\n2\tnext`, isError: false });
  });

  it("reads a window of a 2 GB file, and no more than 4 MiB of it", async () => {
    const path = join(project(), "huge.log");
    writeFileSync(path, Array.from({ length: 5_000 }, (_, i) => `entry ${i + 1}`).join("\n"));
    truncateSync(path, 2 * 1024 ** 3);
    const { result, bytes } = await bytesReadDuring(() => read({ path: "huge.log", offset: 10, limit: 2 }));
    expect({ result, withinFourMiB: bytes <= 4 * MiB }).toEqual({
      result: { text: `10\tentry 10\n11\tentry 11\n[lines 10-11 of a ${2 * 1024 ** 3}-byte file; continue with offset 12]`, isError: false },
      withinFourMiB: true,
    });
  });

  it("reports an offset past the end as an error", async () => {
    writeFileSync(join(project(), "a.txt"), "one\n");
    expect(await read({ path: "a.txt", offset: 5 })).toEqual({
      text: "offset 5 is past the end of a.txt (1 lines)",
      isError: true,
    });
  });

  it("says an empty file is empty", async () => {
    writeFileSync(join(project(), "empty.txt"), "");
    expect(await read({ path: "empty.txt" })).toEqual({ text: "(empty.txt is empty)", isError: false });
  });

  it("reports a missing file as an error result", async () => {
    expect(await read({ path: "nope.txt" })).toEqual({ text: "file not found: nope.txt", isError: true });
  });

  it("points a folder to list_dir", async () => {
    mkdirSync(join(project(), "src"));
    expect(await read({ path: "src" })).toEqual({
      text: "src is a folder; use list_dir to see its entries",
      isError: true,
    });
  });

  it("refuses a named pipe instead of waiting for a writer", async () => {
    execFileSync("mkfifo", [join(project(), "pipe")]);
    expect(await read({ path: "pipe" })).toEqual({
      text: "pipe is not a regular file (a pipe, socket or device); read_file reads files only",
      isError: true,
    });
  });

  it("refuses a binary file", async () => {
    writeFileSync(join(project(), "blob.bin"), Buffer.from([1, 2, 0, 3]));
    expect(await read({ path: "blob.bin" })).toEqual({
      text: "blob.bin looks like a binary file; read_file shows text only",
      isError: true,
    });
  });

  it("refuses a path outside the project folder", async () => {
    expect(await read({ path: "../etc/passwd" })).toEqual({
      text: `path ../etc/passwd is outside the project folder ${project()}`,
      isError: true,
    });
  });

  it("rejects arguments of the wrong type", async () => {
    expect(await read({ path: 7 })).toEqual({ text: 'argument "path" must be a string', isError: true });
    expect(await read({ path: "a.txt", limit: 0 })).toEqual({
      text: 'argument "limit" must be an integer from 1 to 2000',
      isError: true,
    });
  });
});
