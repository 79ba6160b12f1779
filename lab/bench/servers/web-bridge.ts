// node:http to web Request/Response and back, for the SDK's fetch-shaped handler (the SDK's own adapter
// package is not installed). Bodies are read whole: the bench's requests are small.
import type http from "node:http";

export async function toWebRequest(req: http.IncomingMessage, signal: AbortSignal): Promise<Request> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) {
    if (Buffer.isBuffer(chunk)) chunks.push(chunk);
  }
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (typeof value === "string") headers.set(name, value);
    else for (const one of value ?? []) headers.append(name, one);
  }
  const method = req.method ?? "GET";
  const body = method === "GET" || method === "HEAD" ? undefined : Buffer.concat(chunks);
  return new Request(`http://${req.headers.host ?? "127.0.0.1"}${req.url ?? "/"}`, { method, headers, body, signal });
}

export async function writeWebResponse(response: Response, res: http.ServerResponse): Promise<void> {
  res.writeHead(response.status, Object.fromEntries(response.headers));
  if (response.body === null) {
    res.end();
    return;
  }
  for await (const chunk of response.body) {
    if (res.destroyed) return;
    // A client that went away never drains: its close ends the wait too.
    if (!res.write(chunk)) await new Promise<void>((resolve) => res.once("drain", resolve).once("close", resolve));
  }
  res.end();
}
