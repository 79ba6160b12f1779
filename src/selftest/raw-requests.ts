// Exchanges the self-test makes by hand, below the client, so it can send what a correct peer never would
// (a header that disagrees with the body, a version nobody supports, a message cut inside a character) and
// read the raw answer.
import { request } from "node:http";
import type { StdioServerConfig } from "../config/index.js";
import type { JsonObject, JsonRpcMessage, LineFramer, Transport } from "../mcp/index.js";
import { stdioServerCwd } from "../mcp/index.js";
import { createStdioTransport } from "../mcp/index.js";

const RAW_REQUEST_LIMIT_MS = 10_000;

export interface RawHttpReply {
  readonly status: number;
  readonly body: string;
}

export function postRaw(url: string, headers: Readonly<Record<string, string>>, body: JsonObject): Promise<RawHttpReply> {
  const payload = JSON.stringify(body);
  return new Promise((done, fail) => {
    const req = request(url, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
      timeout: RAW_REQUEST_LIMIT_MS,
    });
    req.on("timeout", () => req.destroy(new Error(`no answer from ${url} within ${RAW_REQUEST_LIMIT_MS} ms`)));
    req.on("error", fail);
    req.on("response", (res) => {
      let text = "";
      res.on("data", (chunk: Buffer) => (text += chunk.toString("utf8")));
      res.on("end", () => done({ status: res.statusCode ?? 0, body: text }));
      res.on("error", fail);
    });
    req.end(payload);
  });
}

/** mca's stdio transport to the server of `spec`, not yet started; it inherits this process's environment. */
export function stdioTransportOf(spec: StdioServerConfig, configFile: string): Transport {
  return createStdioTransport({ label: spec.alias, command: spec.command, args: spec.args, cwd: stdioServerCwd(spec, configFile) });
}

/** Starts the server of `spec`, writes one request, and returns the first message it answers with. */
export async function stdioRoundTrip(spec: StdioServerConfig, configFile: string, method: string, params: JsonObject): Promise<JsonRpcMessage> {
  const transport = stdioTransportOf(spec, configFile);
  try {
    return await new Promise<JsonRpcMessage>((done, fail) => {
      const timer = setTimeout(() => fail(new Error(`${spec.alias} did not answer within ${RAW_REQUEST_LIMIT_MS} ms`)), RAW_REQUEST_LIMIT_MS);
      transport
        .start({ onMessage: (answer) => (clearTimeout(timer), done(answer)), onClose: (reason) => (clearTimeout(timer), fail(reason)) })
        .then(() => transport.send({ jsonrpc: "2.0", id: 1, method, params }))
        .catch(fail);
    });
  } finally {
    await transport.close();
  }
}

/**
 * A stdio child that is sent bytes and writes them back in pieces, each only once the reader has taken every
 * byte before it, then exits: the cuts land exactly where the caller puts them, however busy the machine is.
 */
const PIECEWISE_WRITER = String.raw`
let pending = "";
let pieces;
const writeNext = () => {
  const piece = pieces.shift();
  if (pieces.length === 0) process.stdout.write(piece, () => process.exit(0));
  else process.stdout.write(piece);
};
process.stdin.setEncoding("utf8").on("data", (text) => {
  pending += text;
  for (let newline = pending.indexOf("\n"); newline !== -1; newline = pending.indexOf("\n")) {
    const line = pending.slice(0, newline);
    pending = pending.slice(newline + 1);
    if (pieces === undefined) {
      const { bytes, cuts } = JSON.parse(line).params;
      const wire = Buffer.from(bytes, "base64");
      pieces = [0, ...cuts].map((start, index) => wire.subarray(start, cuts[index] ?? wire.length));
    }
    writeNext();
  }
});
`;

/**
 * Has `wire` written to mca's stdio transport in pieces cut at `cuts` (byte offsets, ascending), framed by
 * `createFramer`, and returns the messages the transport delivered before the writer exited.
 */
export async function deliverInPieces(wire: Buffer, cuts: readonly number[], createFramer: (maxLineBytes: number) => LineFramer): Promise<JsonRpcMessage[]> {
  let bytesRead = 0;
  let cutsReached = 0;
  const next = (): void => void transport.send({ jsonrpc: "2.0", method: "next" }).catch(() => undefined);
  // The framer sees every byte the transport reads: once all bytes before a cut are in, the writer may go on.
  const counting = (maxLineBytes: number): LineFramer => {
    const framer = createFramer(maxLineBytes);
    return {
      push(chunk) {
        bytesRead += chunk.length;
        const lines = framer.push(chunk);
        if (bytesRead === cuts[cutsReached]) {
          cutsReached += 1;
          next();
        }
        return lines;
      },
      end: () => framer.end(),
    };
  };
  const transport = createStdioTransport({ label: "piecewise", command: process.execPath, args: ["-e", PIECEWISE_WRITER], createFramer: counting });
  const messages: JsonRpcMessage[] = [];
  try {
    await new Promise<void>((done, fail) => {
      const timer = setTimeout(() => fail(new Error(`the writer did not finish within ${RAW_REQUEST_LIMIT_MS} ms (${bytesRead} bytes read)`)), RAW_REQUEST_LIMIT_MS);
      transport
        .start({ onMessage: (message) => messages.push(message), onClose: () => (clearTimeout(timer), done()) })
        .then(() => transport.send({ jsonrpc: "2.0", method: "write", params: { bytes: wire.toString("base64"), cuts: [...cuts] } }))
        .catch(fail);
    });
  } finally {
    await transport.close();
  }
  return messages;
}
