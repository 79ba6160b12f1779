// The McpError a promise rejects with, for tests that assert on its kind, message and server; anything
// else (a resolution, or another error) fails the test here.
import { McpError } from "../jsonrpc.js";

export async function rejection(promise: Promise<unknown>): Promise<McpError> {
  const error: unknown = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof McpError)) throw new Error(`expected an McpError, got ${String(error)}`);
  return error;
}

/** The parts of an McpError a test compares as a whole. */
export function summary(error: McpError): { kind: string; message: string; server: string | undefined } {
  return { kind: error.kind, message: error.message, server: error.server };
}
