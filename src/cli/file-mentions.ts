// `@path` in a prompt the person typed: a file of the project attached to the turn, as Claude Code does. Its
// text is what read_file gives the model (numbered lines, within the result budget); an image (PNG, JPEG,
// GIF, WebP) goes as an image. Only a word that names an existing regular file inside the project counts
// (`@types/node` with no such file, `me@example.com` stay as they are); the project boundary holds through
// symbolic links, and a deny rule on read_file refuses the mention (typing it is the person's approval).
import { readFile } from "node:fs/promises";
import { statSync } from "node:fs";
import { extname } from "node:path";
import { describeError, formatBytes, imageLine, type Tool, type ToolImage } from "../kernel/index.js";
import { checkImage, fenceFor, MAX_IMAGE_BASE64_BYTES } from "../mcp/index.js";
import { openRegularFile, resolveInProject } from "../tools/index.js";
import { untrustedText } from "./untrusted-text.js";

export interface ProjectFileReader {
  readonly projectDir: string;
  /** read_file's result for the whole file from its first line, as the model would get it. */
  readonly readText: (path: string, signal: AbortSignal) => Promise<{ readonly text: string; readonly isError: boolean }>;
  /** Why a deny rule refuses reading `path`, or undefined: a typed mention needs no question, but never passes a deny. */
  readonly refused: (path: string) => string | undefined;
}

export interface AttachedFile {
  readonly block: string;
  readonly line: string;
  readonly image?: ToolImage;
}

/** The reader a session gives `@path`: the session's own read_file tool, and its deny rules. */
export function projectFileReader(projectDir: string, readFileTool: Tool, refused: (path: string) => string | undefined): ProjectFileReader {
  return {
    projectDir,
    refused,
    readText: async (path, signal) => {
      const args = readFileTool.parse === undefined ? { path } : readFileTool.parse({ path });
      if (args instanceof Error) return { text: args.message, isError: true };
      const result = await readFileTool.run(args, { signal });
      return { text: result.text, isError: result.isError };
    },
  };
}

/** `@path` at the start or after a space; its closing punctuation belongs to the sentence. */
const FILE_MENTION = /(?<=^|\s)@([^\s@]+)/gu;
/** Punctuation that ends the sentence a mention stands in, not the mention (`see @a.ts.` names `a.ts`). */
export const SENTENCE_END = /[.,;!?)\]]+$/u;

const IMAGE_TYPES: Readonly<Record<string, string>> = { ".png": "image/png", ".jpg": "image/jpeg", ".jpeg": "image/jpeg", ".gif": "image/gif", ".webp": "image/webp" };

/** The project files `text` mentions, as written (relative to the project), in order, each once. */
export function findFileMentions(text: string, projectDir: string): string[] {
  const found: string[] = [];
  for (const match of text.matchAll(FILE_MENTION)) {
    const path = (match[1] ?? "").replace(SENTENCE_END, "");
    if (path === "" || found.includes(path) || !isProjectFile(projectDir, path)) continue;
    found.push(path);
  }
  return found;
}

function isProjectFile(projectDir: string, path: string): boolean {
  const absolute = resolveInProject(projectDir, path);
  if (absolute instanceof Error) return false;
  try {
    return statSync(absolute).isFile();
  } catch {
    return false;
  }
}

/** The file as the turn carries it, or an Error naming why it cannot be attached (nothing is sent then). */
export async function attachFile(path: string, reader: ProjectFileReader, signal: AbortSignal): Promise<AttachedFile | Error> {
  const named = untrustedText(`@${path}`);
  const mediaType = IMAGE_TYPES[extname(path).toLowerCase()];
  if (mediaType !== undefined) {
    const image = await readImage(reader.projectDir, path, mediaType);
    if (image instanceof Error) return new Error(`cannot attach ${named}: ${image.message}`);
    return { block: `@${path}\n[image: sent with this message]`, line: `${named}: ${imageLine(image)}`, image };
  }
  const read = await reader.readText(path, signal);
  if (read.isError) return new Error(`cannot attach ${named}: ${untrustedText(read.text)}`);
  const fence = fenceFor(read.text);
  const lines = read.text.split("\n").length;
  return { block: `@${path} (as read_file shows it)\n${fence}\n${read.text}\n${fence}`, line: `${named}: [text, ${lines} ${lines === 1 ? "line" : "lines"} shown]` };
}

async function readImage(projectDir: string, path: string, mediaType: string): Promise<ToolImage | Error> {
  const absolute = resolveInProject(projectDir, path);
  if (absolute instanceof Error) return absolute;
  let bytes: Buffer;
  try {
    const handle = await openRegularFile(absolute, "read");
    try {
      const { size } = await handle.stat();
      // Base64 grows by a third: past this the API refuses it, so it is not read at all.
      if (size > (MAX_IMAGE_BASE64_BYTES / 4) * 3) return new Error(`${formatBytes(size)}, too large for the model (over the API's 5 MB as base64)`);
      bytes = await readFile(handle);
    } finally {
      await handle.close();
    }
  } catch (error) {
    return new Error(describeError(error));
  }
  return checkImage(bytes.toString("base64"), mediaType);
}

