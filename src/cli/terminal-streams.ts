// The streams the chat talks through: process.stdin/stdout in use, in-memory streams in tests.
import type { Readable, Writable } from "node:stream";

export type TerminalInput = Readable & { readonly isTTY?: boolean };
export type TerminalOutput = Writable & { readonly isTTY?: boolean };
