import { truncateSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { bytesReadDuring, MiB } from "./test-support/bytes-read.js";
import { tempProjectPerTest } from "./test-support/temp-project.js";
import { openTextFile, type TextLine } from "./text-lines.js";

describe("openTextFile", () => {
  const folder = tempProjectPerTest("mca-lines-");

  const linesOf = async (content: string | Buffer, maxLineChars = 100): Promise<TextLine[]> => {
    const path = join(folder(), "f.txt");
    writeFileSync(path, content);
    const file = await openTextFile(path);
    try {
      const lines: TextLine[] = [];
      for await (const line of file.lines({ maxLineChars })) lines.push(line);
      return lines;
    } finally {
      await file.close();
    }
  };

  it("yields each line without its newline or carriage return, a last line without newline included", async () => {
    expect(await linesOf("one\r\ntwo\n\nthree")).toEqual([
      { number: 1, text: "one", cut: false },
      { number: 2, text: "two", cut: false },
      { number: 3, text: "", cut: false },
      { number: 4, text: "three", cut: false },
    ]);
  });

  it("yields nothing for an empty file and one empty line for a lone newline", async () => {
    expect(await linesOf("")).toEqual([]);
    expect(await linesOf("\n")).toEqual([{ number: 1, text: "", cut: false }]);
  });

  it("cuts a long line to its first characters and goes on with the next line", async () => {
    expect(await linesOf(`${"é".repeat(30)}\nnext\n`, 10)).toEqual([
      { number: 1, text: "é".repeat(10), cut: true },
      { number: 2, text: "next", cut: false },
    ]);
  });

  it("joins a line that spans several reads, multi-byte characters across the seam included", async () => {
    // 1 MiB is one read: the ü sits across the boundary, and the line goes on after it.
    const line = `${"a".repeat(1024 * 1024 - 1)}ü tail`;
    const [first, ...rest] = await linesOf(`${line}\nend\n`, 2 * 1024 * 1024);
    expect(first).toEqual({ number: 1, text: line, cut: false });
    expect(rest).toEqual([{ number: 2, text: "end", cut: false }]);
  });

  it("tells binary from text by a NUL byte near the start", async () => {
    const binaryPath = join(folder(), "blob.bin");
    const textPath = join(folder(), "text.txt");
    writeFileSync(binaryPath, Buffer.from([0x61, 0x00, 0x62]));
    writeFileSync(textPath, "a\tb\n");
    const files = [await openTextFile(binaryPath), await openTextFile(textPath)];
    expect(files.map((file) => file.binary)).toEqual([true, false]);
    await Promise.all(files.map((file) => file.close()));
  });

  it("gives the first lines of a 2 GB file reading no more than 4 MiB of it", async () => {
    const path = join(folder(), "huge.txt");
    writeFileSync(path, "first\nsecond\n");
    // Sparse: the NULs after the text are never stored, and never read unless asked for.
    truncateSync(path, 2 * 1024 ** 3);
    const file = await openTextFile(path);
    const seen: TextLine[] = [];
    const { bytes } = await bytesReadDuring(async () => {
      try {
        for await (const line of file.lines({ maxLineChars: 100 })) {
          seen.push(line);
          if (seen.length === 3) break;
        }
      } finally {
        await file.close();
      }
    });
    expect(bytes).toBeLessThanOrEqual(4 * MiB);
    expect(seen.map(({ number, cut }) => ({ number, cut }))).toEqual([
      { number: 1, cut: false },
      { number: 2, cut: false },
      { number: 3, cut: true },
    ]);
  });

  it("ends early once its signal is aborted", async () => {
    const controller = new AbortController();
    const path = join(folder(), "big.txt");
    writeFileSync(path, `${"x".repeat(1023)}\n`.repeat(2048));
    const file = await openTextFile(path);
    let count = 0;
    try {
      for await (const _line of file.lines({ maxLineChars: 2_000, signal: controller.signal })) {
        count += 1;
        controller.abort();
      }
    } finally {
      await file.close();
    }
    // The abort is seen before the next read, so only the first 1 MiB read's lines come through.
    expect(count).toBe(1024);
  });
});
