// A demo server under test, run as its own CLI (`<entry> --port <port>`) in its own process group on a
// free loopback port; it is ready once it accepts a TCP connection, and stop() takes its whole group down.
import { spawn } from "node:child_process";
import { once } from "node:events";
import { createServer, connect } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import { releaseGroup, signalGroup, trackGroup } from "./process-groups.js";

const HOST = "127.0.0.1";
const READY_LIMIT_MS = 20_000;
const READY_POLL_MS = 100;
const STOP_GRACE_MS = 3000;
const MAX_LOG_CHARS = 4000;

export interface ServerProcess {
  readonly port: number;
  /** The end of what the server wrote to stdout and stderr. */
  log(): string;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  const probe = createServer();
  probe.listen(0, HOST);
  await once(probe, "listening");
  const address = probe.address();
  probe.close();
  await once(probe, "close");
  if (address === null || typeof address === "string") throw new Error("could not find a free port");
  return address.port;
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, HOST);
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

export interface ServerProcessOptions {
  /** Node's own flags, e.g. a loader. */
  readonly nodeArgs: readonly string[];
  readonly entry: string;
  /** The server's flags besides `--port`. */
  readonly args: readonly string[];
  readonly cwd: string;
}

/** Starts `node [nodeArgs] <entry> --port <free port> [args]`; rejects (and leaves nothing running) if it never listens. */
export async function startServerProcess(options: ServerProcessOptions): Promise<ServerProcess> {
  const { nodeArgs, entry, args, cwd } = options;
  const port = await freePort();
  const child = spawn(process.execPath, [...nodeArgs, entry, "--port", String(port), ...args], { cwd, stdio: ["ignore", "pipe", "pipe"], detached: true });
  if (child.pid !== undefined) trackGroup(child.pid);
  let log = "";
  const keep = (chunk: Buffer): void => {
    log = (log + chunk.toString("utf8")).slice(-MAX_LOG_CHARS);
  };
  child.stdout.on("data", keep);
  child.stderr.on("data", keep);
  const exited = new Promise<void>((resolve) => {
    child.once("close", () => resolve());
    child.once("error", (error) => {
      keep(Buffer.from(error.message));
      resolve();
    });
  });
  let running = true;
  void exited.then(() => (running = false));

  const stop = async (): Promise<void> => {
    signalGroup(child.pid, "SIGTERM");
    const stopped = await Promise.race([exited.then(() => true), sleep(STOP_GRACE_MS).then(() => false)]);
    releaseGroup(child.pid);
    if (!stopped) await Promise.race([exited, sleep(STOP_GRACE_MS)]);
  };

  const deadline = Date.now() + READY_LIMIT_MS;
  while (running && Date.now() < deadline) {
    if (await accepts(port)) return { port, log: () => log, stop };
    await sleep(READY_POLL_MS);
  }
  await stop();
  const why = running ? `did not listen on ${HOST}:${port} within ${READY_LIMIT_MS} ms` : "exited before it listened";
  throw new Error(`${entry} ${why}${log.trim() === "" ? "" : `: ${log.trim().split("\n").slice(-5).join(" / ")}`}`);
}
