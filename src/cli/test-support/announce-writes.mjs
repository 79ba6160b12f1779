// Loaded with `node --import` before mca: after each write to stdout, says on stderr (synchronously, at once)
// how many bytes mca has handed to stdout so far — the event a slow reader waits for before it reads.
import { writeSync } from "node:fs";

const write = process.stdout.write.bind(process.stdout);
let written = 0;
process.stdout.write = (chunk, ...rest) => {
  const accepted = write(chunk, ...rest);
  written += typeof chunk === "string" ? Buffer.byteLength(chunk) : chunk.length;
  writeSync(2, `[stdout written ${written}]\n`);
  return accepted;
};
