// The notes server's three tools, listed two per page: search first, read_note on the second page (so a
// client that takes only the first page of tools/list misses it).
import { NOTES, type Note } from "./library.js";
import { NO_ARGUMENTS, stringArgument, textOutcome, toolError, type ToolEntry } from "../shared/tool.js";

function summary(note: Note): string {
  return `${note.id} — ${note.title} (${note.body.length} characters)`;
}

const search: ToolEntry = {
  definition: {
    name: "search",
    description:
      "Searches the notes library: returns the id and title of every note whose title or text contains the " +
      "query (case-insensitive). Read a match with read_note.",
    inputSchema: {
      type: "object",
      properties: { query: { type: "string", description: "Text to look for; matched case-insensitively." } },
      required: ["query"],
      additionalProperties: false,
    },
    annotations: { readOnlyHint: true },
  },
  call({ arguments: args }) {
    const query = stringArgument(args, "query");
    if (typeof query !== "string") return query;
    const needle = query.toLowerCase();
    const matches = NOTES.filter((note) => `${note.title}\n${note.body}`.toLowerCase().includes(needle));
    const text = matches.length === 0 ? `No note matches "${query}".` : matches.map(summary).join("\n");
    return textOutcome(text, { matches: matches.map((note) => ({ id: note.id, title: note.title })) });
  },
};

const listNotes: ToolEntry = {
  definition: {
    name: "list_notes",
    description: "Lists every note in the library: id, title and length in characters. Takes no arguments.",
    inputSchema: NO_ARGUMENTS,
    annotations: { readOnlyHint: true },
  },
  call() {
    const notes = NOTES.map((note) => ({ id: note.id, title: note.title, length: note.body.length }));
    return textOutcome(NOTES.map(summary).join("\n"), { notes });
  },
};

const readNote: ToolEntry = {
  definition: {
    name: "read_note",
    description:
      "Returns the full text of one note, given its id (from search or list_notes). The text is not shortened: " +
      "the long note is 100,000 characters.",
    inputSchema: {
      type: "object",
      properties: { id: { type: "string", description: "The note's id, e.g. \"welcome\"." } },
      required: ["id"],
      additionalProperties: false,
    },
    annotations: { readOnlyHint: true },
  },
  call({ arguments: args }) {
    const id = stringArgument(args, "id");
    if (typeof id !== "string") return id;
    const note = NOTES.find((candidate) => candidate.id === id);
    if (!note) return toolError(`No note has the id "${id}". Known ids: ${NOTES.map((n) => n.id).join(", ")}.`);
    return textOutcome(note.body);
  },
};

export const NOTES_TOOLS: readonly ToolEntry[] = [search, listNotes, readNote];
