// Reads JSON-RPC messages out of a server's stdout bytes: frames lines, parses each, and skips (counting,
// warning once) the lines a server should not have printed there. A line over the cap is fatal.
import { parseMessage, type JsonRpcMessage } from "./jsonrpc.js";
import { createLineFramer, type LineFramer } from "./line-framer.js";

const QUOTED_LINE_CHARS = 80;

export interface StdioMessageReaderOptions {
  readonly label: string;
  readonly maxLineBytes: number;
  readonly onMessage: (message: JsonRpcMessage) => void;
  /** Once per reader, for the first line that is not JSON-RPC. */
  readonly onWarning?: (message: string) => void;
  /** The stream can no longer be framed; nothing more will be read. */
  readonly onFatal: (error: Error) => void;
  /** The framer to use (a seam for tests and the lab's trap versions); the real one by default. */
  readonly createFramer?: (maxLineBytes: number) => LineFramer;
}

export interface StdioMessageReader {
  push(chunk: Buffer): void;
  end(): void;
  ignoredLineCount(): number;
}

export function createStdioMessageReader(options: StdioMessageReaderOptions): StdioMessageReader {
  const framer = (options.createFramer ?? createLineFramer)(options.maxLineBytes);
  let ignored = 0;
  let fatal = false;

  function onLine(line: string): void {
    const message = parseMessage(line);
    if (!(message instanceof Error)) {
      options.onMessage(message);
      return;
    }
    // A server printing logs to stdout breaks the spec ("nothing else may be written to stdout") but
    // should not break the connection.
    ignored += 1;
    if (ignored > 1) return;
    const quoted = line.length > QUOTED_LINE_CHARS ? `${line.slice(0, QUOTED_LINE_CHARS)}…` : line;
    options.onWarning?.(`${options.label}: ignoring a line on stdout that is not JSON-RPC (${message.message}): "${quoted}"`);
  }

  function push(chunk: Buffer): void {
    if (fatal) return;
    const lines = framer.push(chunk);
    if (lines instanceof Error) {
      fatal = true;
      options.onFatal(new Error(`${options.label}: ${lines.message}; the connection is closed`));
      return;
    }
    for (const line of lines) onLine(line);
  }

  function end(): void {
    if (!fatal) for (const line of framer.end()) onLine(line);
  }

  return { push, end, ignoredLineCount: () => ignored };
}
