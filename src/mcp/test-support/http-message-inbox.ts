// Transport handlers for tests: they keep every message, warning, failed request and close reason, and let
// a test wait (with a limit) for the next message, or for a request's failure, to arrive.
import type { JsonRpcId, JsonRpcMessage, TransportHandlers } from "../jsonrpc.js";

/** The longest a test waits for the next message. */
const WAIT_LIMIT_MS = 5000;

export interface MessageInbox {
  readonly handlers: TransportHandlers;
  readonly messages: readonly JsonRpcMessage[];
  readonly closeReasons: readonly Error[];
  readonly warnings: readonly string[];
  /** The message after the last one taken by `next`, as soon as it is there. */
  next(): Promise<JsonRpcMessage>;
  /** The failure onFailure reported for `requestId`, as soon as it is there. */
  failureOf(requestId: JsonRpcId): Promise<Error>;
}

export function createMessageInbox(): MessageInbox {
  const messages: JsonRpcMessage[] = [];
  const closeReasons: Error[] = [];
  const warnings: string[] = [];
  const waiters: Array<() => void> = [];
  const failures = new Map<JsonRpcId, Error>();
  let taken = 0;
  return {
    handlers: {
      onMessage(message) {
        messages.push(message);
        for (const wake of waiters.splice(0)) wake();
      },
      onClose(reason) {
        closeReasons.push(reason);
      },
      onWarning(warning) {
        warnings.push(warning);
      },
      onFailure(requestId, error) {
        failures.set(requestId, error);
        for (const wake of waiters.splice(0)) wake();
      },
    },
    messages,
    closeReasons,
    warnings,
    failureOf(requestId) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no failure of request ${JSON.stringify(requestId)} arrived`)), WAIT_LIMIT_MS);
        const check = (): void => {
          const found = failures.get(requestId);
          if (found === undefined) return void waiters.push(check);
          clearTimeout(timer);
          resolve(found);
        };
        check();
      });
    },
    next() {
      const index = taken;
      taken += 1;
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`message ${index} did not arrive`)), WAIT_LIMIT_MS);
        const check = (): void => {
          const found = messages[index];
          if (found === undefined) return void waiters.push(check);
          clearTimeout(timer);
          resolve(found);
        };
        check();
      });
    },
  };
}
