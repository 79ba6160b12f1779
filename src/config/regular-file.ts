// Reading a file a repository ships without trusting what it is: only a regular file, opened so that a named
// pipe cannot hang the read and nothing can be swapped in after the check, and never more than a cap.
import { closeSync, constants, fstatSync, openSync, readSync } from "node:fs";
import { describeError } from "../kernel/index.js";

const READ_CHUNK_BYTES = 64 * 1024;

export type RegularFileRead =
  | { readonly kind: "absent" }
  | { readonly kind: "read"; readonly bytes: Buffer }
  | { readonly kind: "too-large" }
  | { readonly kind: "unreadable"; readonly reason: string };

/**
 * A regular file's bytes, at most `maxBytes` of them. Only a regular file is read: a repository could commit
 * a named pipe under the name, and reading one waits for ever. Opened without blocking (a pipe opens at once)
 * and checked on the open file, so nothing can be swapped in between; read synchronously, as these files are
 * small and read at start-up, where the first asynchronous file operation would start libuv's thread pool for nothing.
 */
export function readRegularFile(file: string, maxBytes: number): RegularFileRead {
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    if (error instanceof Error && "code" in error && (error.code === "ENOENT" || error.code === "ENOTDIR")) return { kind: "absent" };
    return { kind: "unreadable", reason: describeError(error) };
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) return { kind: "unreadable", reason: "not a regular file" };
    if (stat.size > maxBytes) return { kind: "too-large" };
    // Read in bounded chunks rather than trusting the size: the file may grow while it is read.
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const chunk = Buffer.allocUnsafe(Math.min(READ_CHUNK_BYTES, maxBytes + 1 - total));
      const read = readSync(fd, chunk, 0, chunk.length, null);
      if (read === 0) return { kind: "read", bytes: Buffer.concat(chunks, total) };
      chunks.push(chunk.subarray(0, read));
      total += read;
      if (total > maxBytes) return { kind: "too-large" };
    }
  } catch (error) {
    return { kind: "unreadable", reason: describeError(error) };
  } finally {
    closeSync(fd);
  }
}
