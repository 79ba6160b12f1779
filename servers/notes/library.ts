// The notes library's content: a few short notes and one of exactly 100,000 ASCII characters (larger than
// one 64 KiB pipe read, so a framer that splits each chunk on newlines breaks on it). Same at every start.

export type Note = { readonly id: string; readonly title: string; readonly body: string };

export const LONG_NOTE_CHARS = 100_000;

/** Numbered sentences, so that where a cut happens is visible in what is left. */
function longBody(): string {
  const sentences: string[] = [];
  let length = 0;
  for (let n = 1; length < LONG_NOTE_CHARS; n += 1) {
    const sentence = `Sentence ${n} of the long note: one line, far longer than a single pipe read. `;
    sentences.push(sentence);
    length += sentence.length;
  }
  return sentences.join("").slice(0, LONG_NOTE_CHARS);
}

export const NOTES: readonly Note[] = [
  {
    id: "welcome",
    title: "Welcome to the notes library",
    body: "This demo server keeps a handful of notes in memory. Use search to find one, read_note to read it.",
  },
  {
    id: "standup",
    title: "Stand-up, Tuesday",
    body: "Framing bug in the stdio transport is fixed. Next: pagination of tools/list and the approval gate.",
  },
  {
    id: "shopping",
    title: "Shopping list",
    body: "Coffee beans, oat milk, a new notebook, batteries for the keyboard.",
  },
  { id: "long", title: "The long note (100,000 characters)", body: longBody() },
];
