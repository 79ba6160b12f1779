// `close_ticket`: asks the user to confirm through a multi round-trip request (MRTR, https://modelcontextprotocol.io/specification/2026-07-28/basic/patterns/mrtr). The
// first call answers `input_required` with an elicitation and an opaque requestState; the retry carries
// the answer and that state back, and only then is the ticket closed.
import { INVALID_PARAMS, MISSING_CLIENT_CAPABILITY, rpcError } from "../shared/rpc-error.js";
import { stringArgument, textOutcome, toolError, type ToolEntry, type ToolOutcome } from "../shared/tool.js";
import type { TicketStore } from "./store.js";
import { isJsonObject, type JsonObject } from "../../src/mcp/index.js";

/** Opaque to the client: it must echo the string byte for byte. */
function requestStateFor(ticketId: string): string {
  return Buffer.from(JSON.stringify({ tool: "close_ticket", ticket: ticketId }), "utf8").toString("base64url");
}

/** `elicitation: {}` means form mode only; `{url: {}}` alone does not offer forms. */
function offersFormElicitation(capabilities: JsonObject): boolean {
  const elicitation = capabilities["elicitation"];
  return isJsonObject(elicitation) && (elicitation["form"] !== undefined || elicitation["url"] === undefined);
}

function askToConfirm(ticketId: string): ToolOutcome {
  const confirm = {
    method: "elicitation/create",
    params: {
      mode: "form",
      message: `Close ticket ${ticketId}?`,
      requestedSchema: { type: "object", properties: { confirm: { type: "boolean" } }, required: ["confirm"] },
    },
  };
  return { kind: "input_required", inputRequests: { confirm }, requestState: requestStateFor(ticketId) };
}

export function createCloseTicketTool(store: TicketStore): ToolEntry {
  return {
    definition: {
      name: "close_ticket",
      description:
        "Closes one ticket after the user confirms it (the server asks through an elicitation form; clients " +
        "without the elicitation capability get error -32021).",
      inputSchema: {
        type: "object",
        properties: { id: { type: "string", description: 'The ticket id, e.g. "T-1".' } },
        required: ["id"],
        additionalProperties: false,
      },
      annotations: { destructiveHint: true, idempotentHint: true },
    },
    call({ arguments: args, meta, inputResponses, requestState }) {
      const id = stringArgument(args, "id");
      if (typeof id !== "string") return id;
      const ticket = store.find(id);
      if (!ticket) return toolError(`No ticket has the id "${id}".`);
      if (ticket.state === "closed") return textOutcome(`Ticket ${id} is already closed.`);
      if (!offersFormElicitation(meta.clientCapabilities)) {
        const message = "Missing required client capability: elicitation (close_ticket asks the user to confirm)";
        return { kind: "error", error: rpcError(MISSING_CLIENT_CAPABILITY, message, { requiredCapabilities: { elicitation: {} } }) };
      }
      if (inputResponses === undefined) return askToConfirm(id);
      if (requestState !== requestStateFor(id)) {
        return { kind: "error", error: rpcError(INVALID_PARAMS, "Invalid params: requestState does not belong to this request") };
      }
      const answer = inputResponses["confirm"];
      // A missing answer is asked for again rather than treated as an error, as MRTR has it.
      if (!isJsonObject(answer)) return askToConfirm(id);
      const content = answer["content"];
      switch (answer["action"]) {
        case "accept":
          if (!isJsonObject(content) || content["confirm"] !== true) return textOutcome(`Ticket ${id} stays open: not confirmed.`);
          store.update(id, { state: "closed" });
          return textOutcome(`Ticket ${id} closed`);
        case "decline":
        case "cancel":
          return textOutcome(`Ticket ${id} stays open: the user did not confirm (${answer["action"]}).`);
        default:
          return { kind: "error", error: rpcError(INVALID_PARAMS, 'Invalid params: inputResponses.confirm.action must be "accept", "decline" or "cancel"') };
      }
    },
  };
}
