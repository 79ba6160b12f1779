import { describe, expect, it } from "vitest";
import { createLineWatcher, createOutputCap } from "./command-process.js";

describe("createOutputCap", () => {
  it("keeps everything that fits in head and tail", () => {
    const cap = createOutputCap(4, 4);
    cap.push(Buffer.from("abc"));
    cap.push(Buffer.from("defgh"));
    expect(cap.text()).toBe("abcdefgh");
  });

  it("keeps the first and last bytes and counts what it left out", () => {
    const cap = createOutputCap(3, 3);
    for (const chunk of ["ab", "cdef", "ghij", "kl"]) cap.push(Buffer.from(chunk));
    expect(cap.text()).toBe("abc\n[… 6 bytes of output left out …]\njkl");
  });

  it("does not split a character that straddles head and tail when nothing was left out", () => {
    const cap = createOutputCap(1, 8);
    cap.push(Buffer.from("é!"));
    expect(cap.text()).toBe("é!");
  });
});

describe("createLineWatcher", () => {
  const watch = (chunks: readonly string[], maxLineBytes = 64): string[] => {
    const lines: string[] = [];
    const watcher = createLineWatcher(maxLineBytes, (line) => lines.push(line));
    for (const chunk of chunks) watcher(Buffer.from(chunk));
    return lines;
  };

  it("gives the newest whole non-blank line a chunk completes, joined across chunks", () => {
    expect(watch(["one\ntw", "o\nthr", "ee\n\n  \n"])).toEqual(["one", "two", "three"]);
  });

  it("gives only the newest of the lines one chunk completes", () => {
    expect(watch(["one\ntwo\nthree\nfo", "ur\nfive\n"])).toEqual(["three", "five"]);
  });

  it("never gives the unfinished end of a chunk", () => {
    expect(watch(["done\nsk-ant-par", "tial"])).toEqual(["done"]);
  });

  it("never gives a line longer than the limit, nor its end after a newline", () => {
    expect(watch([`${"x".repeat(40)}`, `${"y".repeat(40)}\n`, "short\n"], 64)).toEqual(["short"]);
    expect(watch([`${"z".repeat(80)}\n`], 64)).toEqual([]);
  });
});
