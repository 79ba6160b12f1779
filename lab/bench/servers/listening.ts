// How a bench HTTP server tells whoever started it where it listens: one line on stdout, once bound.
import type http from "node:http";

export const LISTENING_PREFIX = "listening on ";

export function announceWhenListening(server: http.Server): void {
  server.listen(0, "127.0.0.1", () => {
    const address = server.address();
    if (address === null || typeof address === "string") throw new Error("the server has no TCP address");
    process.stdout.write(`${LISTENING_PREFIX}http://127.0.0.1:${address.port}/mcp\n`);
  });
  // The parent closing our stdin is the signal to go.
  process.stdin.resume();
  process.stdin.on("end", () => process.exit(0));
}
