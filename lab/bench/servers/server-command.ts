// How to start each bench server as a child: `node <script>` on the compiled bench (what `pnpm bench`
// runs), or `node --import tsx <script>.ts` when the bench runs from source (its tests).
import { fileURLToPath } from "node:url";

export type ServerScript = "raw-stdio-server" | "sdk-stdio-server" | "sdk-http-server" | "plain-http-server";

export interface Command {
  readonly command: string;
  readonly args: readonly string[];
}

const FROM_SOURCE = import.meta.url.endsWith(".ts");

export function serverCommand(script: ServerScript, serverArgs: readonly string[] = []): Command {
  const file = fileURLToPath(new URL(`./${script}.${FROM_SOURCE ? "ts" : "js"}`, import.meta.url));
  return { command: process.execPath, args: [...(FROM_SOURCE ? ["--import", "tsx"] : []), file, ...serverArgs] };
}
