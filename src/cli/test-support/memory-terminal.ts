// A terminal made of memory for CLI tests: a raw-mode-capable input that keystrokes are typed into, and an
// output whose every byte is kept; `destroyMemoryTerminals` (in afterEach) ends the streams of all of them.
import { PassThrough } from "node:stream";

const open: PassThrough[] = [];

export interface MemoryTerminal {
  readonly input: PassThrough & { readonly isTTY: true; setRawMode(mode: boolean): unknown };
  readonly output: PassThrough;
  type(keys: string): void;
  /** Everything written to the output so far. */
  shown(): string;
}

export function createMemoryTerminal(): MemoryTerminal {
  const input = Object.assign(new PassThrough(), { isTTY: true as const, setRawMode: () => input });
  const output = new PassThrough();
  open.push(input, output);
  let shown = "";
  output.on("data", (chunk: Buffer) => (shown += chunk.toString("utf8")));
  return { input, output, type: (keys) => void input.write(keys), shown: () => shown };
}

export function destroyMemoryTerminals(): void {
  for (const stream of open.splice(0)) stream.destroy();
}
