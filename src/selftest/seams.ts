// Where the lab swaps an instinctive version of a part into the self-test: the same seams the tests use
// (the transport seams of each server connection, and the tool list the agent is given).
import type { Tool } from "../kernel/index.js";
import type { TransportSeams } from "../mcp/index.js";

export interface SelfTestSeams {
  readonly transport?: TransportSeams;
  /** Changes the mounted tools before the agent sees them. */
  readonly adaptTools?: (tools: readonly Tool[]) => readonly Tool[];
}
