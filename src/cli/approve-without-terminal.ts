// Approval when nobody can be asked (pipe mode, `-p`, subcommands): `ask` means deny, and the message
// names the flag that would have allowed the call.
import type { ApprovalAnswer } from "../kernel/index.js";
import type { ApprovalRequest } from "../kernel/index.js";

export function denialMessage(toolName: string): string {
  return `denied: ${toolName} needs approval; run with --allow ${JSON.stringify(toolName)} to allow it`;
}

export function createApproverWithoutTerminal(warn: (line: string) => void): (request: ApprovalRequest) => Promise<ApprovalAnswer> {
  return async (request) => {
    warn(denialMessage(request.tool.name));
    return "deny";
  };
}
