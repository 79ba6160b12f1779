// A hostile string for the tests of what mca prints, and how it must look once made safe: an OSC 52
// clipboard write, a CSI screen clear and cursor move, a lone CR, an 8-bit CSI, a bidi override, a
// zero-width space and an invisible tag character.
import { fileURLToPath } from "node:url";

export const HOSTILE = "ok\u001b]52;c;ZWNobyBwd25lZA==\u0007\u001b[2J\u001b[1;1H\rgone\u009b31m\u202eevil\u200b\u{e0041}";
export const HOSTILE_SHOWN = String.raw`ok\u001b]52;c;ZWNobyBwd25lZA==\u0007\u001b[2J\u001b[1;1H\u000dgone\u009b31m\u202eevil\u200b\udb40\udc41`;

/** What none of mca's output may contain once the hostile string went through it. */
export const OBEYED_OR_HIDDEN = /[\u001b\u0007\r\u009b\u202e\u200b]|\u{e0041}/u;

/** A stdio MCP server that writes HOSTILE everywhere a server's text can reach the user (`--exit-at-start`: only its stderr). */
export function hostileStdioServer(...flags: string[]): { command: string; args: string[] } {
  return { command: process.execPath, args: [fileURLToPath(new URL("./hostile-stdio-server.mjs", import.meta.url)), HOSTILE, ...flags] };
}
