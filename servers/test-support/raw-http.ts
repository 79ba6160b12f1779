// Raw loopback HTTP for the tickets tests: node:http with exactly the headers a test gives (no fetch
// normalisation), the body as text, and an SSE body split into its JSON messages. Every wait is bounded.
import { request as httpRequest, type IncomingHttpHeaders, type OutgoingHttpHeaders } from "node:http";

const WAIT_LIMIT_MS = 10_000;

export type RawResponse = { readonly status: number; readonly headers: IncomingHttpHeaders; readonly text: string };

export function rawRequest(url: string, options: { method?: string; headers?: OutgoingHttpHeaders; body?: string } = {}): Promise<RawResponse> {
  // A header set to undefined is left out, so a test can remove one of mcpHeaders().
  const headers = Object.fromEntries(Object.entries(options.headers ?? {}).filter(([, value]) => value !== undefined));
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: options.method ?? "POST", headers, timeout: WAIT_LIMIT_MS }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => {
        text += chunk;
      });
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
      res.on("error", reject);
    });
    req.on("timeout", () => req.destroy(new Error(`no answer from ${url} within ${WAIT_LIMIT_MS} ms`)));
    req.on("error", reject);
    req.end(options.body);
  });
}

/** The headers a conformant 2026-07-28 client sends; `extra` overrides or adds. */
export function mcpHeaders(method: string, extra: OutgoingHttpHeaders = {}): OutgoingHttpHeaders {
  return {
    "Content-Type": "application/json",
    Accept: "application/json, text/event-stream",
    "MCP-Protocol-Version": "2026-07-28",
    "Mcp-Method": method,
    ...extra,
  };
}

/** The `data:` payload of each SSE event, parsed. */
export function sseMessages(text: string): unknown[] {
  return text
    .split("\n\n")
    .filter((event) => event.trim() !== "")
    .map((event) =>
      JSON.parse(
        event
          .split("\n")
          .filter((line) => line.startsWith("data:"))
          .map((line) => line.slice("data:".length).trimStart())
          .join("\n"),
      ),
    );
}

/** POSTs a JSON-RPC body and parses the JSON reply; a reply of another content type is an error. */
export async function postJson(url: string, body: unknown, headers: OutgoingHttpHeaders): Promise<{ status: number; body: unknown }> {
  const response = await rawRequest(url, { headers, body: JSON.stringify(body) });
  if (response.headers["content-type"] !== "application/json") {
    throw new Error(`expected application/json, got ${String(response.headers["content-type"])}: ${response.text.slice(0, 200)}`);
  }
  const parsed: unknown = JSON.parse(response.text);
  return { status: response.status, body: parsed };
}
