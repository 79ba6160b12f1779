// server-everything in its Streamable HTTP mode (or its old HTTP+SSE one), as a child process on a free loopback port: started,
// waited for (with a limit) until it says it listens, and stopped for good by `close`.
import { spawn } from "node:child_process";
import net from "node:net";
import { EVERYTHING_SCRIPT } from "./third-party-servers.js";

const START_LIMIT_MS = 10_000;
const STOP_LIMIT_MS = 5_000;

/** A port the kernel just gave out and took back: free now, and in practice still free a moment later. */
async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (address === null || typeof address === "string") throw new Error("no port was given");
  return address.port;
}

/** How each mode is started, where it is reached, and the line on stderr that says it listens. */
const MODES: Readonly<Record<"streamableHttp" | "sse", { readonly path: string; readonly listening: (port: number) => string }>> = {
  streamableHttp: { path: "/mcp", listening: (port) => `listening on port ${port}` },
  sse: { path: "/sse", listening: (port) => `Server is running on port ${port}` },
};

export async function startEverythingHttp(mode: "streamableHttp" | "sse" = "streamableHttp"): Promise<{ url: string; close(): Promise<void> }> {
  const port = await freePort();
  const child = spawn(process.execPath, [EVERYTHING_SCRIPT, mode], {
    env: { ...process.env, PORT: String(port) },
    stdio: ["ignore", "ignore", "pipe"],
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const close = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, STOP_LIMIT_MS))]);
  };
  let stderr = "";
  const listening = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server-everything did not listen within ${START_LIMIT_MS} ms: ${stderr}`)), START_LIMIT_MS);
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString("utf8");
      if (stderr.includes(MODES[mode].listening(port))) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`server-everything exited with code ${String(code)}: ${stderr}`));
    });
  });
  try {
    await listening;
  } catch (error) {
    await close();
    throw error;
  }
  return { url: `http://127.0.0.1:${port}${MODES[mode].path}`, close };
}
