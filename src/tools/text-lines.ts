// A project file read a line at a time with positioned reads of a fixed-size buffer, so a tool can stop
// as soon as it has what it needs: memory stays bounded by the chunk and the longest kept line, whatever
// the file's size (a 2 GB log, a sparse file, one endless line). Binary files are told from text first.
import type { FileHandle } from "node:fs/promises";
import { openRegularFile } from "./project-files.js";

const CHUNK_BYTES = 1024 * 1024;
const SNIFF_BYTES = 8_000;
const NEWLINE = 0x0a;

export interface TextLine {
  /** 1-based. */
  readonly number: number;
  /** The line without its `\n` (and without a `\r` before it), at most `maxLineChars` characters. */
  readonly text: string;
  /** True when the line was longer than `maxLineChars` and `text` is its beginning only. */
  readonly cut: boolean;
}

export interface TextFile {
  /** Text or binary, the way git tells: a NUL byte in the first few kilobytes means binary. */
  readonly binary: boolean;
  /**
   * The lines in order; a last line without `\n` counts, an empty file has none. Ends early, without an
   * error, once `signal` is aborted: the caller looks at the signal to know why.
   */
  lines(options: { readonly maxLineChars: number; readonly signal?: AbortSignal }): AsyncGenerator<TextLine>;
  close(): Promise<void>;
}

/** Opens `path` (a regular file) and reads its first bytes to tell binary from text; whoever opens it closes it. */
export async function openTextFile(path: string): Promise<TextFile> {
  const handle = await openRegularFile(path, "read");
  try {
    const sniff = Buffer.alloc(SNIFF_BYTES);
    const { bytesRead } = await handle.read(sniff, 0, SNIFF_BYTES, 0);
    const binary = sniff.subarray(0, bytesRead).includes(0);
    return { binary, lines: (options) => readLines(handle, options.maxLineChars, options.signal), close: () => handle.close() };
  } catch (error) {
    await handle.close();
    throw error;
  }
}

async function* readLines(handle: FileHandle, maxLineChars: number, signal: AbortSignal | undefined): AsyncGenerator<TextLine> {
  // A UTF-8 character is at most 4 bytes, so this many bytes always hold `maxLineChars` characters.
  const maxLineBytes = maxLineChars * 4;
  const { size } = await handle.stat();
  const chunk = Buffer.alloc(Math.max(1, Math.min(CHUNK_BYTES, size)));
  let pieces: Buffer[] = [];
  let keptBytes = 0;
  /** After a line was cut and yielded: its rest is passed over up to the next newline. */
  let skipping = false;
  let number = 0;
  const take = (cut: boolean): TextLine => {
    number += 1;
    const decoded = Buffer.concat(pieces, keptBytes).toString("utf8");
    const isCut = cut || decoded.length > maxLineChars;
    const text = isCut ? decoded.slice(0, maxLineChars) : decoded.replace(/\r$/u, "");
    pieces = [];
    keptBytes = 0;
    return { number, text, cut: isCut };
  };
  /** Keeps `bytes` of the current line; true when they overflow its cap. */
  const keep = (bytes: Buffer): boolean => {
    const room = maxLineBytes - keptBytes;
    const kept = bytes.subarray(0, Math.min(room, bytes.length));
    // A copy: `chunk` is overwritten by the next read.
    if (kept.length > 0) pieces.push(Buffer.from(kept));
    keptBytes += kept.length;
    return bytes.length > room;
  };

  for (let position = 0; ; ) {
    if (signal?.aborted) return;
    const { bytesRead } = await handle.read(chunk, 0, chunk.length, position);
    if (bytesRead === 0) break;
    position += bytesRead;
    const data = chunk.subarray(0, bytesRead);
    let start = 0;
    while (start <= data.length) {
      const newline = data.indexOf(NEWLINE, start);
      const end = newline === -1 ? data.length : newline;
      if (!skipping && keep(data.subarray(start, end))) {
        // Yielded at once, so a caller that has enough never waits for the end of an endless line.
        yield take(true);
        skipping = true;
      }
      if (newline === -1) break;
      if (skipping) skipping = false;
      else yield take(false);
      start = newline + 1;
    }
  }
  if (keptBytes > 0 && !skipping) yield take(false);
}
