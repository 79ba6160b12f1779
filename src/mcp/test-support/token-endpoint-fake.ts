// A loopback fake of OAuth endpoints for the grant and proof tests: each POST is recorded (headers and form)
// and answered with the next scripted answer; requests past the script get a 500 and are recorded too.
import http from "node:http";
import type { AddressInfo } from "node:net";

export type ScriptedAnswer = { readonly status: number; readonly body: Readonly<Record<string, unknown>>; readonly headers?: Readonly<Record<string, string>> };

export type RecordedPost = { readonly path: string; readonly headers: Readonly<Record<string, string | string[] | undefined>>; readonly form: Readonly<Record<string, string>> };

export interface EndpointFake {
  readonly origin: string;
  readonly posts: readonly RecordedPost[];
  close(): Promise<void>;
}

export async function startEndpointFake(script: readonly ScriptedAnswer[]): Promise<EndpointFake> {
  const posts: RecordedPost[] = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const form = Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString("utf8")));
      posts.push({ path: request.url ?? "", headers: request.headers, form });
      const answer = script[posts.length - 1] ?? { status: 500, body: { error: "unscripted" } };
      response.writeHead(answer.status, { "content-type": "application/json", ...answer.headers }).end(JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address: AddressInfo | string | null = server.address();
  if (address === null || typeof address === "string") throw new Error("the fake has no TCP address");
  return {
    origin: `http://127.0.0.1:${address.port}`,
    posts,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
