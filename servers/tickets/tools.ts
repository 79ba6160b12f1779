// The ticket system's tools, a table of plain objects. Order matters to conformance: the first tool
// (list_open) must succeed when called with `{}`, and `assign` is the one tool with an `x-mcp-header`.
import { createCloseTicketTool } from "./close-ticket.js";
import { ticketLine, type Ticket, type TicketStore } from "./store.js";
import { NO_ARGUMENTS, stringArgument, textOutcome, toolError, type ToolEntry } from "../shared/tool.js";

function summaries(tickets: readonly Ticket[]): { id: string; title: string; state: string; queue: string }[] {
  return tickets.map(({ id, title, state, queue }) => ({ id, title, state, queue }));
}

function listOpen(store: TicketStore): ToolEntry {
  return {
    definition: {
      name: "list_open",
      description: "Lists the open tickets: id, queue and title, one per line. Takes no arguments.",
      inputSchema: NO_ARGUMENTS,
    },
    call() {
      const open = store.all().filter((ticket) => ticket.state === "open");
      const text = open.length === 0 ? "No open tickets." : open.map(ticketLine).join("\n");
      return textOutcome(text, { tickets: summaries(open) });
    },
  };
}

function search(store: TicketStore): ToolEntry {
  return {
    definition: {
      name: "search",
      description:
        "Searches all tickets (open and closed) whose id or title contains the query, case-insensitively. " +
        "Answers as an event stream: progress first when asked for, a log message after the result.",
      inputSchema: {
        type: "object",
        properties: { query: { type: "string", description: "Text to look for in ticket ids and titles." } },
        required: ["query"],
        additionalProperties: false,
      },
      annotations: { readOnlyHint: true },
    },
    streamed: true,
    call({ arguments: args }) {
      const query = stringArgument(args, "query");
      if (typeof query !== "string") return query;
      const needle = query.toLowerCase();
      const found = store.all().filter((ticket) => `${ticket.id} ${ticket.title}`.toLowerCase().includes(needle));
      const text = found.length === 0 ? `No ticket matches "${query}".` : found.map(ticketLine).join("\n");
      return textOutcome(text, { tickets: summaries(found) });
    },
  };
}

/** Its non-ASCII name cannot travel as plain header text: clients must send `Mcp-Name` as a base64 sentinel. */
function overview(store: TicketStore): ToolEntry {
  return {
    definition: {
      name: "tickets_überblick",
      title: "Tickets: Überblick",
      description:
        "Overview of the ticket system: how many tickets are open and closed, and open tickets per queue. " +
        "Takes no arguments. (Its name is not ASCII on purpose.)",
      inputSchema: NO_ARGUMENTS,
    },
    call() {
      const tickets = store.all();
      const open = tickets.filter((ticket) => ticket.state === "open");
      const openByQueue: Record<string, number> = {};
      for (const ticket of open) openByQueue[ticket.queue] = (openByQueue[ticket.queue] ?? 0) + 1;
      const queues = Object.entries(openByQueue).sort(([a], [b]) => a.localeCompare(b));
      const perQueue = queues.map(([queue, count]) => `${queue} ${count}`).join(", ");
      const text = `${open.length} open, ${tickets.length - open.length} closed. Open by queue: ${perQueue || "none"}.`;
      return textOutcome(text, { open: open.length, closed: tickets.length - open.length, openByQueue });
    },
  };
}

function assign(store: TicketStore): ToolEntry {
  return {
    definition: {
      name: "assign",
      description:
        "Moves a ticket to another queue. The queue also travels as the HTTP header Mcp-Param-Queue, " +
        "which the server checks against the argument.",
      inputSchema: {
        type: "object",
        properties: {
          id: { type: "string", description: 'The ticket id, e.g. "T-2".' },
          queue: { type: "string", description: 'The queue to move it to, e.g. "web".', "x-mcp-header": "Queue" },
        },
        required: ["id", "queue"],
        additionalProperties: false,
      },
      annotations: { destructiveHint: false, idempotentHint: true },
    },
    call({ arguments: args }) {
      const id = stringArgument(args, "id");
      if (typeof id !== "string") return id;
      const queue = stringArgument(args, "queue");
      if (typeof queue !== "string") return queue;
      const ticket = store.find(id);
      if (!ticket) return toolError(`No ticket has the id "${id}".`);
      store.update(id, { queue });
      return textOutcome(`Ticket ${id} moved to queue ${queue} (was ${ticket.queue}).`);
    },
  };
}

export function createTicketTools(store: TicketStore): readonly ToolEntry[] {
  return [listOpen(store), search(store), overview(store), assign(store), createCloseTicketTool(store)];
}
