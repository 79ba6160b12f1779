import { execFileSync } from "node:child_process";
import { mkdir, truncate, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempProjectPerTest } from "../tools/test-support/temp-project.js";
import { readRegularFile } from "./regular-file.js";

describe("readRegularFile", () => {
  const directory = tempProjectPerTest("mca-regular-file-");

  it("reads a regular file of at most the cap whole", async () => {
    const file = join(directory(), "a.txt");
    await writeFile(file, "12345");
    expect(readRegularFile(file, 5)).toEqual({ kind: "read", bytes: Buffer.from("12345") });
  });

  it("calls a file above the cap too large, without reading it", async () => {
    const file = join(directory(), "big.bin");
    await writeFile(file, "");
    // Sparse: its size is what counts, and nothing of it is read.
    await truncate(file, 1024 * 1024 * 1024);
    expect(readRegularFile(file, 1024)).toEqual({ kind: "too-large" });
  });

  it("tells a missing file, also one under a path that is not a folder, from one that cannot be read", async () => {
    await writeFile(join(directory(), "file"), "");
    expect(readRegularFile(join(directory(), "missing"), 10)).toEqual({ kind: "absent" });
    expect(readRegularFile(join(directory(), "file", "below"), 10)).toEqual({ kind: "absent" });
  });

  it("never waits on a named pipe or reads a folder: neither is a regular file", async () => {
    const fifo = join(directory(), "pipe");
    execFileSync("mkfifo", [fifo]);
    await mkdir(join(directory(), "folder"));
    expect(readRegularFile(fifo, 10)).toEqual({ kind: "unreadable", reason: "not a regular file" });
    expect(readRegularFile(join(directory(), "folder"), 10)).toEqual({ kind: "unreadable", reason: "not a regular file" });
  });
});
