// Polls a condition in tests of asynchronous work (terminal output, child processes), failing with what
// was awaited once the limit has passed, so a test never hangs.
const WAIT_LIMIT_MS = 5000;
const POLL_MS = 10;

export async function waitFor(what: string, condition: () => boolean): Promise<void> {
  for (let waitedMs = 0; !condition(); waitedMs += POLL_MS) {
    if (waitedMs > WAIT_LIMIT_MS) throw new Error(`gave up waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}
