// Runs the SDK v2 fixture server over stdio (`node --import tsx sdk-v2-stdio-main.ts`); it ends when stdin closes.
import { serveStdio } from "@modelcontextprotocol/server/stdio";
import { createFixtureServer } from "./sdk-v2-fixture.js";

serveStdio(() => createFixtureServer());
