// The McpError a promise rejects with, for tests that assert on its kind and message; anything else
// (a resolution, or another error) fails the test here.
import { McpError } from "../errors.js";

export async function rejection(promise: Promise<unknown>): Promise<McpError> {
  const error: unknown = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof McpError)) throw new Error(`expected an McpError, got ${String(error)}`);
  return error;
}
