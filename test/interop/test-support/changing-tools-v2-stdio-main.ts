// Runs the changing SDK v2 server over stdio (`node --import tsx changing-tools-v2-stdio-main.ts`): the
// connection's one instance changes its own tools, and the SDK reports it on the listen stream.
import { serveStdio } from "@modelcontextprotocol/server/stdio";
import { createChangingServer } from "./changing-tools-v2.js";

serveStdio(() => createChangingServer(false, (_server, swap) => swap()));
