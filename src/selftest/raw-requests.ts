// Requests the self-test sends by hand, below the client, so it can send what a correct client never
// would (a header that disagrees with the body, a version nobody supports) and read the raw answer.
import { request } from "node:http";
import type { StdioServerConfig } from "../config/index.js";
import type { JsonObject, JsonRpcMessage } from "../mcp/index.js";
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

/** Starts the server of `spec`, writes one request, and returns the first message it answers with. */
export async function stdioRoundTrip(spec: StdioServerConfig, configFile: string, method: string, params: JsonObject): Promise<JsonRpcMessage> {
  const transport = createStdioTransport({ label: spec.alias, command: spec.command, args: spec.args, cwd: stdioServerCwd(spec, configFile) });
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
