// `@alias:uri` in a prompt the user typed: that resource read from the server and attached to the turn (its
// text as a fenced block under the alias and uri, its images as images), and the URIs Tab offers after
// `@alias:`. Only a word that starts with `@` and the alias of a mounted server counts: `me@example.com`
// and `@types/node` are left as they are. What a server sends is shown through untrustedText. `@path` of a
// project file is attached too (file-mentions.ts).
import { formatBytes, imageLine, type ToolImage } from "../kernel/index.js";
import {
  contentsPart,
  fenceFor,
  isAppResource,
  listResources,
  templateStart,
  McpError,
  offersResources,
  READ_RESOURCE_TOOL,
  readFailureText,
  readResource,
  type ResourceContents,
  type ResourceSource,
} from "../mcp/index.js";
import type { ServerQuestion } from "./server-completion.js";
import { attachFile, findFileMentions, SENTENCE_END, type AttachedFile, type ProjectFileReader } from "./file-mentions.js";
import { templateQuestion } from "./server-completion.js";
import { untrustedText } from "./untrusted-text.js";

export type { ProjectFileReader } from "./file-mentions.js";

/** More in one prompt is more likely a paste than a request. */
export const MAX_MENTIONS_PER_PROMPT = 10;
/** What one prompt attaches in all, its items together (a read may hold any number of them): past it, the rest is cut. */
export const MAX_ATTACHED_TEXT_CHARS = 100_000;

/** The prompt with what it mentions attached, and one line per attached item for the user to see. */
export interface AttachedTurn {
  readonly text: string;
  readonly images: readonly ToolImage[];
  readonly lines: readonly string[];
}

export interface Mentions {
  /**
   * The prompt with each mention attached; an Error, and nothing sent, when a server cannot answer one or
   * `refused` names why a read may not happen (a deny rule: typing a mention is the person's own approval of
   * the read, but never past a deny).
   */
  attach(text: string, signal: AbortSignal, refused?: (alias: string, uri: string) => string | undefined): Promise<AttachedTurn | Error>;
  /** Tab on a word that starts with `@`: `@alias:` for the servers that offer resources, then their URIs and where their templates start. */
  complete(word: string): string[];
  /** Tab on `@alias:` and a URI that ends inside a template's variable: what to ask the server (`completion/complete`). */
  question(word: string): ServerQuestion | undefined;
  /** The views (MCP Apps) among each server's resources, by alias (`ui://` URIs with their titles), as last listed or listed now. */
  apps(): Promise<ReadonlyMap<string, readonly AppView[]>>;
  /** Lists one server's resources (or every server's) again, in the background, for complete(). */
  refresh(alias?: string): void;
}

export interface AppView {
  readonly uri: string;
  readonly title?: string;
}

interface Mention {
  readonly alias: string;
  readonly uri: string;
}

/** `@alias:uri` at the start or after a space; a URI's closing punctuation belongs to the sentence. */
const MENTION = /(?<=^|\s)@([^\s@:]+):(\S+)/gu;

/**
 * Where the text piped into `mca -p "<prompt>"` begins (run-mode.ts puts it after the prompt): what follows
 * came from a file or a command, not from the person, and a mention in it is not read.
 */
export const PIPED_TEXT_START = "\n\n<stdin>\n";

/** What the person typed of a prompt: all of it but the text piped after it. */
export function typedPart(text: string): string {
  const piped = text.indexOf(PIPED_TEXT_START);
  return piped === -1 ? text : text.slice(0, piped);
}

export function findMentions(text: string, aliases: readonly string[]): Mention[] {
  const found: Mention[] = [];
  for (const match of typedPart(text).matchAll(MENTION)) {
    const alias = match[1] ?? "";
    const uri = (match[2] ?? "").replace(SENTENCE_END, "");
    if (!aliases.includes(alias) || uri === "" || found.some((known) => known.alias === alias && known.uri === uri)) continue;
    found.push({ alias, uri });
  }
  return found;
}

/** One item of a read: its text fenced under `@alias:uri`, or, as in a tool result, its image or a note. */
function attachContents(alias: string, contents: ResourceContents, budget: number): AttachedFile {
  const heading = `@${alias}:${contents.uri}${contents.mimeType === undefined ? "" : ` (${contents.mimeType})`}`;
  const shown = untrustedText(heading);
  if (contents.text !== undefined) {
    const kept = Math.max(0, budget);
    const cut = contents.text.length > kept;
    const text = cut ? `${contents.text.slice(0, kept)}\n[cut: ${contents.text.length - kept} more characters]` : contents.text;
    const marks = fenceFor(text);
    const size = `${formatBytes(Buffer.byteLength(contents.text))}${cut ? `, cut to ${kept} characters` : ""}`;
    return { block: `${heading}\n${marks}\n${text}${text.endsWith("\n") ? "" : "\n"}${marks}`, line: `${shown}: [text, ${size}]` };
  }
  // As a tool result reads it: a heading line, then the image's line or a note of what was not sent.
  const part = contentsPart(contents);
  const line = `${shown}: ${part.image === undefined ? untrustedText(part.text.split("\n").at(-1) ?? "") : imageLine(part.image)}`;
  return { block: `${heading}\n${part.text}`, line, ...(part.image === undefined ? {} : { image: part.image }) };
}

/** A server's URI as the model reads it in a note: one line, of a sane length. */
function shownUri(uri: string): string {
  const flat = uri.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/gu, " ");
  return JSON.stringify(flat.length <= 300 ? flat : `${flat.slice(0, 299)}…`);
}

/**
 * What the model is told with the next typed prompt of the resources that changed since it read them (a
 * mention, or read_mcp_resource), one line each; undefined when none did. Their contents are not pushed:
 * the model reads one again itself, under the same approval as any read.
 */
export function resourceChangeNote(sources: readonly ResourceSource[]): string | undefined {
  const lines = sources.flatMap((source) =>
    (source.takeResourceChanges?.() ?? []).map(
      (uri) => `MCP server "${source.alias}": resource ${shownUri(uri)} changed since you read it; read it again with ${READ_RESOURCE_TOOL} if you need its contents.`,
    ),
  );
  return lines.length === 0 ? undefined : `<resource-changes>\n${lines.join("\n")}\n</resource-changes>`;
}

/** `files`: the project's files for `@path`; without it only resources are attached. */
export function createMentions(sources: readonly ResourceSource[], files?: ProjectFileReader): Mentions {
  const aliases = sources.map((source) => source.alias);
  const uris = new Map<string, readonly string[]>();
  const templates = new Map<string, readonly string[]>();
  const views = new Map<string, readonly AppView[]>();
  /** Each server's newest listing, settled or on its way (it never rejects). */
  const listings = new Map<string, Promise<void>>();
  const list = (source: ResourceSource): Promise<void> => {
    if (!offersResources(source)) return Promise.resolve();
    const listed = listResources(source).then((listing) => {
      if (listing instanceof McpError) return;
      uris.set(source.alias, listing.entries.filter((entry) => !entry.template).map((entry) => entry.uri));
      templates.set(source.alias, listing.entries.filter((entry) => entry.template).map((entry) => entry.uri));
      const apps = listing.entries.filter((entry) => !entry.template && isAppResource(entry));
      views.set(source.alias, apps.map((entry) => ({ uri: entry.uri, ...(entry.title === undefined ? {} : { title: entry.title }) })));
    });
    listings.set(source.alias, listed);
    return listed;
  };
  return {
    async attach(typed, signal, refused) {
      const mentions = findMentions(typed, aliases);
      // Taken only for a turn that goes: a prompt refused below leaves the changes for the next one.
      const withChanges = (prompt: string): string => {
        const changes = resourceChangeNote(sources);
        return changes === undefined ? prompt : `${prompt}\n\n${changes}`;
      };
      // A word that is a server's mention is never also taken for a file.
      const paths = files === undefined ? [] : findFileMentions(typedPart(typed), files.projectDir).filter((path) => !mentions.some(({ alias, uri }) => `${alias}:${uri}` === path));
      if (mentions.length + paths.length === 0) return { text: withChanges(typed), images: [], lines: [] };
      if (mentions.length + paths.length > MAX_MENTIONS_PER_PROMPT) return new Error(`a prompt attaches at most ${MAX_MENTIONS_PER_PROMPT} files and resources; it names ${mentions.length + paths.length}`);
      const attached: AttachedFile[] = [];
      for (const path of paths) {
        if (files === undefined) break;
        const refusal = files.refused(path);
        if (refusal !== undefined) return new Error(`cannot attach ${untrustedText(`@${path}`)}: ${untrustedText(refusal)}`);
        const file = await attachFile(path, files, signal);
        if (file instanceof Error) return file;
        attached.push(file);
      }
      let budget = MAX_ATTACHED_TEXT_CHARS;
      for (const { alias, uri } of mentions) {
        const source = sources.find((candidate) => candidate.alias === alias);
        const named = untrustedText(`@${alias}:${uri}`);
        if (source === undefined || !offersResources(source)) return new Error(`cannot attach ${named}: MCP server "${untrustedText(alias)}" offers no resources`);
        const refusal = refused?.(alias, uri);
        if (refusal !== undefined) return new Error(`cannot attach ${named}: ${untrustedText(refusal)}`);
        const contents = await readResource(source, uri, { signal });
        if (contents instanceof McpError) return new Error(`cannot attach ${named}: ${untrustedText(readFailureText(alias, uri, contents))}`);
        if (contents.length === 0) return new Error(`cannot attach ${named}: the resource has no contents`);
        for (const item of contents) {
          attached.push(attachContents(alias, item, budget));
          budget -= item.text?.length ?? 0;
        }
      }
      return {
        text: withChanges([typed, ...attached.map((item) => item.block)].join("\n\n")),
        images: attached.flatMap((item) => (item.image === undefined ? [] : [item.image])),
        lines: attached.map((item) => item.line),
      };
    },
    complete(word) {
      const colon = word.indexOf(":");
      if (!word.startsWith("@")) return [];
      if (colon === -1) return sources.filter(offersResources).map((source) => `@${source.alias}:`).filter((candidate) => candidate.startsWith(word));
      if (!aliases.includes(word.slice(1, colon))) return [];
      const alias = word.slice(1, colon);
      // A template is offered up to its first variable (`greeting://`): Tab goes on from there with the server's values.
      const known = new Set([...(uris.get(alias) ?? []), ...(templates.get(alias) ?? []).map(templateStart)]);
      const typed = word.slice(colon + 1);
      // Readline prints the candidates and inserts the one chosen as they are: a URI that would not show as itself is not offered.
      return [...known].filter((uri) => uri.startsWith(typed) && untrustedText(uri) === uri).map((uri) => `${word.slice(0, colon + 1)}${uri}`);
    },
    question(word) {
      const colon = word.indexOf(":");
      const source = sources.find((candidate) => candidate.alias === word.slice(1, colon));
      if (!word.startsWith("@") || colon === -1 || source === undefined) return undefined;
      return templateQuestion(source, templates.get(source.alias) ?? [], word);
    },
    async apps() {
      // Where nothing listed them yet (pipe mode lists nothing in the background), they are listed now.
      await Promise.all(sources.map((source) => listings.get(source.alias) ?? list(source)));
      return views;
    },
    refresh(alias) {
      for (const source of sources) if (alias === undefined || source.alias === alias) void list(source);
    },
  };
}
