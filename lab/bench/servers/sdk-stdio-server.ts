// The SDK v2 stdio server: `serveStdio` over this process's stdin/stdout, the SDK's documented entry.
import { serveStdio } from "@modelcontextprotocol/server/stdio";
import { createSdkServer } from "./sdk-server.js";

serveStdio(() => createSdkServer());
process.stdout.on("error", () => process.exit(0));
