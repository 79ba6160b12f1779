// Keeps a command's output bounded while it is read: the first and the last bytes are kept, the
// middle is counted and dropped, so a command printing gigabytes costs a few kilobytes of memory.

export interface OutputCap {
  push(chunk: Buffer): void;
  /** The kept output, with one line saying how many bytes were left out in the middle, if any. */
  text(): string;
}

export function createOutputCap(headBytes: number, tailBytes: number): OutputCap {
  const head: Buffer[] = [];
  let headLength = 0;
  let tail: Buffer[] = [];
  let tailLength = 0;
  let totalLength = 0;

  return {
    push(chunk) {
      totalLength += chunk.length;
      let rest = chunk;
      if (headLength < headBytes) {
        const taken = rest.subarray(0, headBytes - headLength);
        head.push(taken);
        headLength += taken.length;
        rest = rest.subarray(taken.length);
      }
      if (rest.length === 0) return;
      tail.push(rest);
      tailLength += rest.length;
      // Drop whole chunks that fall entirely before the last `tailBytes`.
      while (tail.length > 1 && tailLength - (tail[0]?.length ?? 0) >= tailBytes) {
        tailLength -= tail[0]?.length ?? 0;
        tail = tail.slice(1);
      }
    },
    text() {
      const kept = Buffer.concat(tail);
      const keptTail = kept.subarray(Math.max(0, kept.length - tailBytes));
      const omitted = totalLength - headLength - keptTail.length;
      if (omitted === 0) return Buffer.concat([...head, keptTail]).toString("utf8");
      const headText = Buffer.concat(head).toString("utf8");
      return `${headText}\n[… ${omitted} bytes of output left out …]\n${keptTail.toString("utf8")}`;
    },
  };
}
