// Runs inside the sandbox, before the command: the one way out of its network namespace to mca's HTTP proxy.
// `node network-forwarder.cjs <fd> -- <program> <args…>`: listens on 127.0.0.1 (a port of the sandbox's own
// loopback) and carries each connection as one HTTP/2 stream over descriptor <fd>, a socket pair whose other
// end mca holds, outside (network-proxy.ts); then runs the program with the proxy variables set and ends as it
// ends. It decides nothing: what a connection may reach is judged by mca. Plain CommonJS on Node's own modules,
// as it runs from the source tree and from dist/ alike (scripts/bundle.mjs copies it).
"use strict";
const { spawn } = require("node:child_process");
const net = require("node:net");

const [fdText, separator, program, ...args] = process.argv.slice(2);
if (!/^\d+$/u.test(fdText ?? "") || separator !== "--" || program === undefined) {
  process.stderr.write("usage: network-forwarder.cjs <fd> -- <program> [args…]\n");
  process.exit(2);
}

/** The HTTP/2 session over the channel, made at the first connection: a command that makes none does not pay for http2. */
let session;
function tunnel() {
  if (session !== undefined) return session;
  const channel = new net.Socket({ fd: Number(fdText), readable: true, writable: true });
  session = require("node:http2").connect("http://mca-proxy", { createConnection: () => channel });
  // The channel closes when mca ends the call: connections still open end with it, the command runs on.
  session.on("error", () => undefined);
  channel.on("error", () => undefined);
  // The session must not keep this process alive: it ends when the command ends.
  session.unref();
  return session;
}

const server = net.createServer((connection) => {
  const session = tunnel();
  if (session.closed || session.destroyed) {
    connection.destroy();
    return;
  }
  const stream = session.request({ ":method": "CONNECT", ":authority": "mca-proxy:80" });
  connection.pipe(stream).pipe(connection);
  stream.on("error", () => connection.destroy());
  stream.on("close", () => connection.destroy());
  connection.on("error", () => stream.destroy());
});
server.on("error", (error) => run(`mca: no proxy in the sandbox (${error.message}): the command has no network`, {}));
server.listen(0, "127.0.0.1", () => {
  const address = server.address();
  const proxy = `http://127.0.0.1:${typeof address === "object" && address !== null ? address.port : 0}`;
  // Both spellings: curl and wget read the lower-case ones, npm, pip and git either. NO_PROXY empty, so that
  // nothing (localhost included, which is the sandbox's own) is meant to bypass it.
  run(null, {
    HTTP_PROXY: proxy, HTTPS_PROXY: proxy, http_proxy: proxy, https_proxy: proxy,
    ALL_PROXY: proxy, all_proxy: proxy, NO_PROXY: "", no_proxy: "",
  });
});
server.unref();

/** Runs the program once, with `variables` added to the environment, and exits as it exits. */
function run(warning, variables) {
  if (warning !== null) process.stderr.write(`${warning}\n`);
  const child = spawn(program, args, { stdio: "inherit", env: { ...process.env, ...variables } });
  child.on("error", (error) => {
    process.stderr.write(`mca: cannot run ${program}: ${error.message}\n`);
    process.exit(127);
  });
  child.on("exit", (code, signal) => {
    if (signal === null) process.exit(code ?? 1);
    // Ends by the same signal, so that what waits for the sandbox sees how the command ended.
    process.removeAllListeners(signal);
    process.kill(process.pid, signal);
  });
}
