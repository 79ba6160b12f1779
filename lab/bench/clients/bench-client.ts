// What every benchmarked client offers the measurements, whichever library is underneath: one tools/call
// of `payload`, a full tools/list, and close. Each reports lengths, so a wrong answer cannot pass as fast.

/** Where the server is: a command the client spawns itself, or a URL some other process listens on. */
export type Endpoint =
  | { readonly kind: "stdio"; readonly command: string; readonly args: readonly string[] }
  | { readonly kind: "http"; readonly url: string };

export interface BenchClient {
  /** One tools/call of `payload`; resolves with the length of the text it answered. */
  call(bytes: number): Promise<number>;
  /** Every page of tools/list followed; resolves with the number of tools. */
  listTools(): Promise<number>;
  close(): Promise<void>;
}

export type ClientKind = "mca" | "sdk" | "raw";

/** A line cap well above the 50 MB case, for the clients whose default would refuse it. */
export const BENCH_MAX_LINE_BYTES = 256 * 1024 * 1024;

export function textLength(content: unknown): number {
  if (!Array.isArray(content)) throw new Error("the result has no content array");
  const first: unknown = content[0];
  if (typeof first !== "object" || first === null || !("text" in first) || typeof first.text !== "string") {
    throw new Error("the result's first block is not text");
  }
  return first.text.length;
}
