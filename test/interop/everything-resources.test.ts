import { readFileSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTempProject, type TempProject } from "../../src/cli/test-support/run-cli.js";
import { startFakeMessagesApi } from "../../src/model/test-support/fake-messages-api.js";
import { replyEvents } from "../../src/model/test-support/sse-replies.js";
import { EVERYTHING_SCRIPT, everythingStdio } from "./test-support/third-party-servers.js";

const MODEL = "claude-sonnet-5-5";
const READ_RULE = "mcp__everything__read_resource";
const ARCHITECTURE = "demo://resource/static/document/architecture.md";
/** The file server-everything serves under ARCHITECTURE. */
const ARCHITECTURE_TEXT = readFileSync(join(dirname(EVERYTHING_SCRIPT), "docs", "architecture.md"), "utf8");
const IMAGE_SERVER = fileURLToPath(new URL("./test-support/resource-image-server.mjs", import.meta.url));

const staticDocument = (name: string): string =>
  `everything  demo://resource/static/document/${name}  ${name}  (text/markdown)  Static document file exposed from /docs: ${name}`;

/**
 * @modelcontextprotocol/server-everything 2026.8.31 over stdio: its resources and templates through the two
 * resource tools, a read's approval per server, and `@everything:<uri>` attached to a prompt in mca -p.
 */
describe("server-everything's resources", () => {
  let project: TempProject | undefined;
  let configFile = "";

  beforeAll(async () => {
    project = await createTempProject();
    configFile = join(project.dir, "servers.json");
    const pics = { command: process.execPath, args: [IMAGE_SERVER] };
    await writeFile(configFile, JSON.stringify({ mcpServers: { everything: everythingStdio(), pics } }));
  });

  afterAll(async () => {
    await project?.remove();
  });

  async function run(args: readonly string[], env: Readonly<Record<string, string>> = { MOCK: "1" }) {
    if (project === undefined) throw new Error("no project");
    return project.run([...args, "--mcp-config", configFile], "", env);
  }

  it("lists its documents and its two templates through list_mcp_resources", async () => {
    const result = await run(["call", "list_mcp_resources", '{"server":"everything"}']);
    expect({ code: result.code, lines: result.stdout.trimEnd().split("\n") }).toEqual({
      code: 0,
      lines: [
        ...["architecture.md", "extension.md", "features.md", "how-it-works.md", "instructions.md", "startup.md", "structure.md"].map(staticDocument),
        "everything  demo://resource/dynamic/text/{resourceId}  Dynamic Text Resource  (text/plain)  Plaintext dynamic resource fabricated from the {resourceId} variable, which must be an integer.  [template: fill in its {placeholders} to read it]",
        "everything  demo://resource/dynamic/blob/{resourceId}  Dynamic Blob Resource  (application/octet-stream)  Binary (base64) dynamic resource fabricated from the {resourceId} variable, which must be an integer.  [template: fill in its {placeholders} to read it]",
      ],
    });
  });

  it("reads a document as the text the server serves, once a rule allows reading from that server", async () => {
    const result = await run(["call", "read_mcp_resource", JSON.stringify({ server: "everything", uri: ARCHITECTURE }), "--allow", READ_RULE]);
    expect({ code: result.code, stdout: result.stdout }).toEqual({ code: 0, stdout: `[resource ${ARCHITECTURE} (text/markdown)]\n${ARCHITECTURE_TEXT}${ARCHITECTURE_TEXT.endsWith("\n") ? "" : "\n"}` });
  });

  it("reads a template's blob as a note of its type and size", async () => {
    const result = await run(["call", "read_mcp_resource", '{"server":"everything","uri":"demo://resource/dynamic/blob/7"}', "--allow", READ_RULE]);
    expect({ code: result.code, stdout: result.stdout }).toEqual({
      code: 0,
      stdout: expect.stringMatching(/^\[resource demo:\/\/resource\/dynamic\/blob\/7 \(text\/plain\), \d+ bytes of binary data; not shown as text\]\n$/u),
    });
  });

  it("answers a uri it does not know with an error naming the uri and the listing tool", async () => {
    const result = await run(["call", "read_mcp_resource", '{"server":"everything","uri":"demo://nothing"}', "--allow", READ_RULE]);
    expect({ code: result.code, stdout: result.stdout }).toEqual({
      code: 1,
      stdout: 'MCP server "everything" has no resource "demo://nothing" (MCP error -32602: Resource demo://nothing not found (code -32602)); list_mcp_resources lists what it offers\n',
    });
  });

  it("asks before a read without a rule, and names the rule for that server", async () => {
    const result = await run(["call", "read_mcp_resource", JSON.stringify({ server: "everything", uri: ARCHITECTURE }), "--allow", "mcp__pics__read_resource"]);
    expect({ code: result.code, stdout: result.stdout }).toEqual({
      code: 1,
      stdout: `Not run: read_mcp_resource needs approval and there is no terminal to ask on; run mca with --allow "${READ_RULE}" to allow it.\n`,
    });
  });

  it("attaches @alias:uri to the prompt: a document as a fenced block under its name, an image as an image block", async () => {
    const api = await startFakeMessagesApi([{ kind: "stream", events: replyEvents(MODEL, [{ type: "text", chunks: ["Seen."] }], "end_turn") }]);
    try {
      const prompt = `compare @everything:${ARCHITECTURE} with @pics:pics://logo.png, and mail me@example.com:1`;
      const result = await run(["-p", prompt, "--model", MODEL], { ANTHROPIC_API_KEY: "k", ANTHROPIC_BASE_URL: api.baseURL });
      const body = api.requests[0]?.body;
      const messages = typeof body === "object" && body !== null && "messages" in body ? body.messages : undefined;
      const fence = "```";
      expect({ code: result.code, stdout: result.stdout, attached: result.stderr.split("\n").filter((line) => line.startsWith("@")), messages }).toEqual({
        code: 0,
        stdout: "Seen.\n",
        attached: [`@everything:${ARCHITECTURE} (text/markdown): [text, 2 kB]`, "@pics:pics://logo.png (image/png): [image: image/png 2×3, 33 bytes]"],
        messages: [
          {
            role: "user",
            content: [
              {
                type: "text",
                text: `${prompt}\n\n@everything:${ARCHITECTURE} (text/markdown)\n${fence}\n${ARCHITECTURE_TEXT}${ARCHITECTURE_TEXT.endsWith("\n") ? "" : "\n"}${fence}\n\n@pics:pics://logo.png (image/png)\n[resource pics://logo.png (image/png)]\n[image: image/png 2×3, 33 bytes]`,
              },
              { type: "image", source: { type: "base64", media_type: "image/png", data: expect.stringMatching(/^iVBORw0KGgo/u) }, cache_control: { type: "ephemeral" } },
            ],
          },
        ],
      });
    } finally {
      await api.close();
    }
  });

  it("sends nothing when a mentioned resource cannot be read, and says which", async () => {
    const api = await startFakeMessagesApi([]);
    try {
      const result = await run(["-p", "see @everything:demo://nothing", "--model", MODEL], { ANTHROPIC_API_KEY: "k", ANTHROPIC_BASE_URL: api.baseURL });
      expect({ code: result.code, requests: api.requests.length, error: result.stderr.split("\n").filter((line) => line.startsWith("cannot attach")) }).toEqual({
        code: 1,
        requests: 0,
        error: [
          'cannot attach @everything:demo://nothing: MCP server "everything" has no resource "demo://nothing" (MCP error -32602: Resource demo://nothing not found (code -32602)); list_mcp_resources lists what it offers',
        ],
      });
    } finally {
      await api.close();
    }
  });

  it("reads nothing for a mention that a deny rule refuses", async () => {
    const api = await startFakeMessagesApi([]);
    try {
      const result = await run(["-p", `see @everything:${ARCHITECTURE}`, "--model", MODEL, "--deny", "mcp__everything__read_resource"], { ANTHROPIC_API_KEY: "k", ANTHROPIC_BASE_URL: api.baseURL });
      expect({ code: result.code, requests: api.requests.length, error: result.stderr.split("\n").filter((line) => line.startsWith("cannot attach")) }).toEqual({
        code: 1,
        requests: 0,
        error: [`cannot attach @everything:${ARCHITECTURE}: refused: rule "mcp__everything__read_resource" (deny) from --deny`],
      });
    } finally {
      await api.close();
    }
  });
});
