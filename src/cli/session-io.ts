// What a mode gives the agent when it makes one: how to ask for approval and where events go.
// main.ts owns everything else the agent needs and hands the modes a factory.
import type { Agent, ApprovalRequest } from "../kernel/index.js";
import type { ApprovalAnswer } from "../kernel/index.js";
import type { AgentEvent } from "../kernel/index.js";

export interface SessionIo {
  readonly approve: (request: ApprovalRequest) => Promise<ApprovalAnswer>;
  readonly emit: (event: AgentEvent) => void;
}

export type AgentFactory = (io: SessionIo) => Agent;
