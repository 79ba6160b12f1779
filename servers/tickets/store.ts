// The ticket system's in-memory state: the same four tickets at every start; closing or reassigning one
// changes only this process's memory.

export type TicketState = "open" | "closed";
export type Ticket = { readonly id: string; readonly title: string; readonly state: TicketState; readonly queue: string };

const INITIAL_TICKETS: readonly Ticket[] = [
  { id: "T-1", title: "Login page times out on slow networks", state: "open", queue: "web" },
  { id: "T-2", title: "CSV export drops the last row", state: "open", queue: "data" },
  { id: "T-3", title: "Dark mode: settings page is unreadable", state: "closed", queue: "web" },
  { id: "T-4", title: "Umlaute in Ticket-Titeln werden falsch angezeigt (ä, ö, ü)", state: "open", queue: "i18n" },
];

export type TicketStore = {
  all(): readonly Ticket[];
  find(id: string): Ticket | undefined;
  update(id: string, change: Partial<Pick<Ticket, "state" | "queue">>): void;
};

export function createTicketStore(): TicketStore {
  const tickets = new Map(INITIAL_TICKETS.map((ticket) => [ticket.id, ticket]));
  return {
    all: () => [...tickets.values()],
    find: (id) => tickets.get(id),
    update(id, change) {
      const ticket = tickets.get(id);
      if (ticket) tickets.set(id, { ...ticket, ...change });
    },
  };
}

/** One line per ticket, as the tools show them: `T-1 (open, web) Login page times out…`. */
export function ticketLine(ticket: Ticket): string {
  return `${ticket.id} (${ticket.state}, ${ticket.queue}) ${ticket.title}`;
}
