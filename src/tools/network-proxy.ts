// The HTTP proxy a sandboxed command reaches the network through, run by mca outside the sandbox for one
// command: the forwarder inside (network-forwarder.cjs) carries each of the command's connections as an HTTP/2
// stream over a socket pair, and each stream is served here as one HTTP/1.1 proxy connection: `CONNECT
// host:port` for HTTPS (RFC 9110 §9.3.6), a request with an absolute URI for plain HTTP (RFC 9112 §3.2.2). Each
// target's domain is judged (domain-access.ts) before anything is dialled; a refused one gets a 403 at once,
// whose body names the domain and how to allow it, so that a client fails instead of retrying for a minute.
import { lookup } from "node:dns/promises";
import { createServer as createHttpServer, request as httpRequest, type IncomingMessage, type ServerResponse } from "node:http";
import { createServer as createHttp2Server, constants as http2Constants } from "node:http2";
import { BlockList, connect, isIP, type Socket } from "node:net";
import { Duplex } from "node:stream";
import { describeError } from "../kernel/index.js";
import type { DomainJudge } from "./domain-access.js";

/** Opens a TCP connection to `host:port`; an Error says why not, in words for the command's user. */
export type Dialer = (host: string, port: number) => Promise<Socket | Error>;

export interface ProxyDeps {
  readonly judge: DomainJudge;
  /** dialPublic unless a test gives its own. */
  readonly dial?: Dialer;
}

/** A domain the proxy refused during the command, and why: for the result the model reads. */
export interface RefusedDomain {
  readonly domain: string;
  readonly why: string;
}

export interface ProxyRun {
  readonly refused: () => readonly RefusedDomain[];
  /** Ends every connection still open; the command has ended. */
  readonly close: () => void;
}

const DIAL_TIMEOUT_MS = 15_000;
/** Headers of one hop (RFC 9110 §7.6.1), and the proxy's own: not passed on. */
const HOP_HEADERS = new Set(["connection", "keep-alive", "proxy-connection", "proxy-authorization", "proxy-authenticate", "te", "trailer", "transfer-encoding", "upgrade"]);

/** Serves the proxy on `channel` (mca's end of the forwarder's socket pair) until `close`. */
export function serveProxy(channel: Duplex, deps: ProxyDeps): ProxyRun {
  const dial = deps.dial ?? dialPublic;
  const refused = new Map<string, string>();
  const open = new Set<Duplex>();
  const own = <T extends Duplex>(stream: T): T => {
    open.add(stream);
    stream.once("close", () => open.delete(stream));
    return stream;
  };

  /** The target's verdict; a refusal is remembered for the result and answered with its 403 text. */
  const judge = async (host: string, port: number): Promise<string | null> => {
    const verdict = await deps.judge(host, port);
    if (verdict.kind === "allowed") return null;
    refused.set(host, verdict.why);
    return refusalText(host, verdict.why);
  };

  const proxy = createHttpServer();
  proxy.on("connect", (request: IncomingMessage, client: Duplex, head: Buffer) => {
    own(client);
    client.on("error", () => client.destroy());
    const target = parseAuthority(request.url ?? "");
    if (target === null) return void client.end(statusText(400, `mca's proxy: not a host:port to CONNECT to: ${JSON.stringify(request.url)}\n`));
    void (async () => {
      const refusal = await judge(target.host, target.port);
      if (refusal !== null) return void client.end(statusText(403, refusal));
      const upstream = await dial(target.host, target.port);
      if (upstream instanceof Error) return void client.end(statusText(502, `mca's proxy: ${upstream.message}\n`));
      own(upstream);
      if (client.destroyed) return void upstream.destroy();
      client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
      if (head.length > 0) upstream.write(head);
      upstream.on("error", () => client.destroy());
      client.on("close", () => upstream.destroy());
      upstream.on("close", () => client.destroy());
      client.pipe(upstream).pipe(client);
    })().catch((error: unknown) => {
      // A judge or dialer that throws fails this connection, never mca (an unhandled rejection ends the run).
      if (!client.destroyed) client.end(statusText(502, `mca's proxy: ${describeError(error)}\n`));
    });
  });
  proxy.on("request", (request: IncomingMessage, response: ServerResponse) => {
    forward(request, response).catch((error: unknown) => {
      if (!response.headersSent) response.writeHead(502, { "content-type": "text/plain; charset=utf-8", connection: "close" }).end(`mca's proxy: ${describeError(error)}\n`);
      else response.destroy();
    });
  });

  async function forward(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = absoluteHttpUrl(request.url ?? "");
    const reply = (status: number, text: string): void => {
      response.writeHead(status, { "content-type": "text/plain; charset=utf-8", connection: "close" }).end(text);
    };
    if (url === null) return reply(400, `mca's proxy takes absolute http:// URLs (and CONNECT for https): ${JSON.stringify(request.url)}\n`);
    const refusal = await judge(url.host, url.port);
    if (refusal !== null) return reply(403, refusal);
    const upstream = await dial(url.host, url.port);
    if (upstream instanceof Error) return reply(502, `mca's proxy: ${upstream.message}\n`);
    own(upstream);
    const headers = Object.fromEntries(Object.entries(request.headers).filter(([name]) => !HOP_HEADERS.has(name)));
    const outgoing = httpRequest({ createConnection: () => upstream, method: request.method, path: url.path, headers, setHost: false });
    outgoing.on("response", (answer) => {
      const kept = Object.fromEntries(Object.entries(answer.headers).filter(([name]) => !HOP_HEADERS.has(name)));
      response.writeHead(answer.statusCode ?? 502, answer.statusMessage, kept);
      answer.pipe(response);
    });
    outgoing.on("error", (error) => {
      if (!response.headersSent) reply(502, `mca's proxy: ${error.message}\n`);
      else response.destroy();
    });
    request.pipe(outgoing);
  }

  // Each HTTP/2 stream the forwarder opens is one connection of the command's, handed to the HTTP/1.1 server.
  const tunnel = createHttp2Server();
  tunnel.on("stream", (stream, headers) => {
    if (headers[":method"] !== "CONNECT") return void stream.close(http2Constants.NGHTTP2_REFUSED_STREAM);
    stream.respond({ ":status": 200 });
    proxy.emit("connection", own(plainDuplex(stream)));
  });
  tunnel.on("sessionError", () => undefined);
  channel.on("error", () => undefined);
  tunnel.emit("connection", own(channel));

  return {
    refused: () => [...refused].map(([domain, why]) => ({ domain, why })),
    close: () => {
      for (const stream of open) stream.destroy();
      tunnel.close();
      proxy.close();
    },
  };
}

/** The 403's body: which domain, why, and how to allow it. */
function refusalText(domain: string, why: string): string {
  return (
    `mca refused the connection to ${domain}: ${why}.\n` +
    `To allow it, add "network(${domain})" to "allow" in your settings, or run mca with --allow "network(${domain})"; ` +
    `a new domain is asked about in the chat.\n`
  );
}

const REASONS: Readonly<Record<number, string>> = { 400: "Bad Request", 403: "Forbidden", 502: "Bad Gateway" };

/** A whole HTTP/1.1 answer on a CONNECT's raw stream. */
function statusText(status: number, body: string): string {
  const bytes = Buffer.byteLength(body);
  return `HTTP/1.1 ${status} ${REASONS[status] ?? ""}\r\ncontent-type: text/plain; charset=utf-8\r\ncontent-length: ${bytes}\r\nconnection: close\r\n\r\n${body}`;
}

export interface Target {
  /** Lower case, without a trailing dot; an IPv6 address in brackets. */
  readonly host: string;
  readonly port: number;
}

const HOST_NAME = /^(?=.{1,253}$)[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?(?:\.[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?)*$/u;

/** `registry.npmjs.org:443`, `[::1]:8080` → the target; null for anything else. */
export function parseAuthority(authority: string): Target | null {
  const match = /^(\[[0-9A-Fa-f:.]+\]|[^:[\]]+):(\d{1,5})$/u.exec(authority);
  if (match === null) return null;
  return target(match[1] ?? "", Number(match[2]));
}

function target(rawHost: string, port: number): Target | null {
  const host = rawHost.toLowerCase().replace(/\.$/u, "");
  if (port < 1 || port > 65_535) return null;
  if (host.startsWith("[")) return isIP(host.slice(1, -1)) === 6 ? { host, port } : null;
  return HOST_NAME.test(host) ? { host, port } : null;
}

/** `http://host[:port]/path` → the target and the path to ask for; null for any other form. */
function absoluteHttpUrl(text: string): (Target & { readonly path: string }) | null {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return null;
  }
  if (url.protocol !== "http:" || url.username !== "" || url.password !== "") return null;
  const found = target(url.hostname, url.port === "" ? 80 : Number(url.port));
  return found === null ? null : { ...found, path: `${url.pathname}${url.search}` };
}

/**
 * Addresses a sandboxed command never reaches through the proxy, whatever the name it gave: the host's own
 * loopback (its services are out of the sandbox's reach without the network), the unspecified address that
 * reaches it too, and link-local (a cloud's metadata service, 169.254.169.254, hands out credentials).
 */
let unreachable: BlockList | undefined;
/** Made at the first check: start-up pays nothing for a list only a proxied command needs. */
function unreachableList(): BlockList {
  if (unreachable !== undefined) return unreachable;
  const list = new BlockList();
  list.addSubnet("127.0.0.0", 8, "ipv4");
  list.addSubnet("0.0.0.0", 8, "ipv4");
  list.addSubnet("169.254.0.0", 16, "ipv4");
  list.addAddress("::1", "ipv6");
  list.addAddress("::", "ipv6");
  list.addSubnet("fe80::", 10, "ipv6");
  list.addSubnet("::ffff:127.0.0.0", 104, "ipv6");
  list.addSubnet("::ffff:169.254.0.0", 112, "ipv6");
  list.addSubnet("::ffff:0.0.0.0", 104, "ipv6");
  return (unreachable = list);
}

export function isUnreachable(address: string): boolean {
  const family = isIP(address);
  return family !== 0 && unreachableList().check(address, family === 6 ? "ipv6" : "ipv4");
}

/** The default dialer: the name resolved by the host, an unreachable address refused, a time limit on the connect. */
async function dialPublic(host: string, port: number): Promise<Socket | Error> {
  const name = host.startsWith("[") ? host.slice(1, -1) : host;
  let addresses: string[];
  try {
    addresses = (await lookup(name, { all: true, verbatim: true })).map((entry) => entry.address);
  } catch (error) {
    return new Error(`cannot resolve ${host}: ${describeError(error)}`);
  }
  const address = addresses.find((one) => !isUnreachable(one));
  if (address === undefined) return new Error(`${host} is the host's own loopback or link-local address, which sandboxed commands never reach (use "network": true)`);
  return new Promise((settle) => {
    const socket = connect({ host: address, port });
    const timer = setTimeout(() => {
      socket.destroy();
      settle(new Error(`no connection to ${host}:${port} within ${DIAL_TIMEOUT_MS} ms`));
    }, DIAL_TIMEOUT_MS);
    socket.once("connect", () => {
      clearTimeout(timer);
      settle(socket);
    });
    socket.once("error", (error) => {
      clearTimeout(timer);
      settle(new Error(`cannot connect to ${host}:${port}: ${error.message}`));
    });
  });
}

/**
 * An HTTP/2 stream as a plain Duplex for the HTTP/1.1 server: handed the stream itself, Node's server wrote
 * the first bytes of a response with a content-length wrongly (curl read "HTTP/0.9"), so the bytes are relayed
 * through a stream of its own, its end and its destruction passed on both ways.
 */
function plainDuplex(inner: Duplex): Duplex {
  const outer = new Duplex({
    read: () => void inner.resume(),
    write: (chunk: Buffer, _encoding, done) => void inner.write(chunk, (error) => done(error ?? null)),
    final: (done) => void inner.end(() => done()),
    destroy: (error, done) => {
      inner.destroy(error ?? undefined);
      done(error);
    },
  });
  inner.on("data", (chunk: Buffer) => {
    if (!outer.push(chunk)) inner.pause();
  });
  inner.on("end", () => outer.push(null));
  inner.on("error", (error) => outer.destroy(error));
  inner.on("close", () => outer.destroy());
  return outer;
}
