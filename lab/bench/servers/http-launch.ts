// Starts a bench HTTP server as a child and waits (bounded) for the line that says where it listens;
// close() ends its stdin, then kills it if it lingers.
import { spawn } from "node:child_process";
import { LISTENING_PREFIX } from "./listening.js";
import type { Command } from "./server-command.js";

const START_LIMIT_MS = 15_000;
const EXIT_LIMIT_MS = 2000;

export interface LaunchedServer {
  readonly url: string;
  close(): Promise<void>;
}

export async function launchHttpServer(command: Command): Promise<LaunchedServer> {
  const child = spawn(command.command, [...command.args], { stdio: ["pipe", "pipe", "inherit"] });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  async function close(): Promise<void> {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.stdin.end();
    const killTimer = setTimeout(() => child.kill("SIGKILL"), EXIT_LIMIT_MS);
    await exited;
    clearTimeout(killTimer);
  }
  try {
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no "${LISTENING_PREFIX}" line within ${START_LIMIT_MS} ms`)), START_LIMIT_MS);
      let seen = "";
      child.stdout.on("data", (chunk: Buffer) => {
        seen += chunk.toString("utf8");
        const line = seen.split("\n").find((one) => one.startsWith(LISTENING_PREFIX));
        if (line === undefined) return;
        clearTimeout(timer);
        resolve(line.slice(LISTENING_PREFIX.length).trim());
      });
      child.once("error", reject);
      child.once("exit", (code) => reject(new Error(`the server exited (code ${code}) before listening`)));
    });
    return { url, close };
  } catch (error) {
    await close();
    throw error;
  }
}
