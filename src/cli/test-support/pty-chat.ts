// The real CLI's chat on a pseudo-terminal made by script(1), for tests that need a terminal: keys go in
// as bytes (a bracketed paste, Ctrl-C), everything the terminal shows is kept, and `until` waits for it.
import { spawn } from "node:child_process";
import { join } from "node:path";
import { afterEach, beforeEach } from "vitest";
import { startFakeMessagesApi, type FakeMessagesApi, type FakeReply } from "../../model/test-support/fake-messages-api.js";
import { cliNodeArgs, createTempProject, type CliEntry, type TempProject } from "./run-cli.js";

const POLL_MS = 25;
const WAIT_LIMIT_MS = 15_000;

export interface PtyChat {
  type(keys: string): void;
  /** Resolves once the screen matches; rejects, naming what it saw, after WAIT_LIMIT_MS. */
  until(pattern: RegExp): Promise<void>;
  screen(): string;
  /** The exit status once the chat has ended (null: killed). */
  readonly exited: Promise<number | null>;
  kill(): void;
}

export async function startPtyChat(
  project: TempProject,
  args: readonly string[] = [],
  extraEnv: Readonly<Record<string, string>> = { MOCK: "1" },
  entry: CliEntry = "bundle",
  /** The terminal's size; unset, script(1) leaves it unknown (0 by 0). */
  size?: { readonly columns: number; readonly rows: number },
): Promise<PtyChat> {
  const quote = (word: string): string => `'${word.replaceAll("'", "'\\''")}'`;
  const command = [process.execPath, ...cliNodeArgs(entry, args)];
  const line = `${size === undefined ? "" : `stty cols ${size.columns} rows ${size.rows}; exec `}${command.map(quote).join(" ")}`;
  const env = { PATH: process.env.PATH ?? "", HOME: project.home, XDG_CONFIG_HOME: join(project.home, ".config"), TERM: "xterm", ...extraEnv };
  const child = spawn("script", ["-qfec", line, "/dev/null"], { cwd: project.dir, env, stdio: ["pipe", "pipe", "pipe"] });
  let screen = "";
  child.stdout.on("data", (chunk: Buffer) => {
    screen += chunk.toString("utf8");
  });
  child.stderr.resume();
  const exited = new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)));
  const until = async (pattern: RegExp): Promise<void> => {
    for (let waitedMs = 0; !pattern.test(screen); waitedMs += POLL_MS) {
      if (waitedMs > WAIT_LIMIT_MS) throw new Error(`gave up waiting for ${String(pattern)} in ${JSON.stringify(screen)}`);
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  };
  const chat: PtyChat = {
    type: (keys) => void child.stdin.write(keys),
    until,
    screen: () => screen,
    exited,
    kill: () => child.kill("SIGKILL"),
  };
  await until(/Ctrl-D exits/);
  return chat;
}

/** Each test's project, and the chat and fake Messages API it starts there: all ended after the test. */
export interface PtyChatPerTest {
  readonly project: TempProject;
  chat: PtyChat | undefined;
  api: FakeMessagesApi | undefined;
  /** Starts the fake API with `replies` and a chat against it; both are kept here to be ended. */
  startApiChat(
    replies: readonly FakeReply[],
    args: readonly string[],
    entry?: CliEntry,
    size?: { readonly columns: number; readonly rows: number },
  ): Promise<PtyChat>;
}

/** Registers the set-up and tear-down of a pty chat for every test of the file; `prepare` fills the project. */
export function ptyChatPerTest(prepare?: (project: TempProject) => Promise<void>): PtyChatPerTest {
  let project: TempProject | undefined;
  const each: PtyChatPerTest = {
    get project() {
      if (project === undefined) throw new Error("the project exists only inside a test");
      return project;
    },
    chat: undefined,
    api: undefined,
    async startApiChat(replies, args, entry = "bundle", size) {
      each.api = await startFakeMessagesApi(replies);
      each.chat = await startPtyChat(each.project, args, { ANTHROPIC_API_KEY: "test-key", ANTHROPIC_BASE_URL: each.api.baseURL }, entry, size);
      return each.chat;
    },
  };
  beforeEach(async () => {
    project = await createTempProject();
    await prepare?.(project);
  });
  afterEach(async () => {
    each.chat?.kill();
    each.chat = undefined;
    await each.api?.close();
    each.api = undefined;
    await project?.remove();
    project = undefined;
  });
  return each;
}

/** The conversation a request the fake API received carried: each message's role and its texts. */
export function textsOf(request: { readonly body: unknown } | undefined): Array<{ role: unknown; texts: unknown[] }> {
  const messages = typeof request?.body === "object" && request.body !== null && "messages" in request.body ? request.body.messages : [];
  if (!Array.isArray(messages)) return [];
  return messages.map((message: { role?: unknown; content?: unknown }) => ({
    role: message.role,
    texts: Array.isArray(message.content) ? message.content.map((block: { text?: unknown }) => block.text) : [message.content],
  }));
}
