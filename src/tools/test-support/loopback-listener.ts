// A TCP listener on 127.0.0.1 (port 0) that only counts the connections it gets: a command that should have
// no network must leave it at zero.
import { createServer } from "node:net";

export interface LoopbackListener {
  readonly port: number;
  readonly connections: () => number;
  readonly close: () => void;
}

export async function listenOnLoopback(): Promise<LoopbackListener> {
  let connections = 0;
  const server = createServer((socket) => {
    connections += 1;
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  const port = typeof address === "object" && address !== null ? address.port : 0;
  return { port, connections: () => connections, close: () => server.close() };
}
