// The one way out of the process: close every MCP connection and child (the closers main owns), each
// bounded by CLOSE_TIMEOUT_MS, then exit with the given status. Calling it again changes nothing.

/** Longer than a stdio server's own teardown (stdin close, then SIGTERM, then SIGKILL, 2 s apart). */
export const CLOSE_TIMEOUT_MS = 5000;

export type Closer = () => Promise<void> | void;

export interface ShutdownDeps {
  /** Read when shutdown runs, so closers registered after start-up are included. */
  readonly closers: readonly Closer[];
  readonly exit: (code: number) => void;
  readonly warn: (text: string) => void;
  readonly closeTimeoutMs?: number;
}

export type Shutdown = (code: number) => Promise<void>;

export function createShutdown(deps: ShutdownDeps): Shutdown {
  let running: Promise<void> | undefined;
  return (code) => {
    running ??= closeAll(deps).then(() => deps.exit(code));
    return running;
  };
}

/**
 * One closer after another, in the order they were registered, reading the list as it grows: the first
 * (the running mode settling) may still register more (connections mounted while it was stopping).
 */
async function closeAll(deps: ShutdownDeps): Promise<void> {
  const limitMs = deps.closeTimeoutMs ?? CLOSE_TIMEOUT_MS;
  for (let index = 0; index < deps.closers.length; index += 1) {
    const close = deps.closers[index];
    if (close === undefined) continue;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<"timeout">((resolve) => {
      timer = setTimeout(() => resolve("timeout"), limitMs);
    });
    try {
      const result = await Promise.race([Promise.resolve().then(close), timeout]);
      if (result === "timeout") deps.warn(`a connection did not close within ${limitMs} ms; leaving it to the exit handler`);
    } catch (error) {
      deps.warn(`closing a connection failed: ${error instanceof Error ? error.message : String(error)}`);
    } finally {
      clearTimeout(timer);
    }
  }
}
