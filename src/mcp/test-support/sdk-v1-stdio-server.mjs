// A legacy (2025-11-25) stdio server built with the official TypeScript SDK v1, as most servers people run
// today are: a tool the SDK runs only as a task, tools that ask the client (elicitation, roots, sampling),
// one that reports the client's declared capabilities, and one that logs at every level.
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { InMemoryTaskStore } from "@modelcontextprotocol/sdk/experimental/tasks/stores/in-memory.js";
import { z } from "zod";

const server = new McpServer(
  { name: "sdk-v1-legacy", version: "1.0.0" },
  { capabilities: { tools: {}, logging: {}, tasks: { requests: { tools: { call: {} } } } }, taskStore: new InMemoryTaskStore() },
);
const text = (value) => ({ content: [{ type: "text", text: typeof value === "string" ? value : JSON.stringify(value) }] });

server.experimental.tasks.registerToolTask(
  "long_job",
  { description: "Runs for a long time, as a task.", inputSchema: { seconds: z.number() }, execution: { taskSupport: "required" } },
  {
    createTask: async (_args, extra) => ({ task: await extra.taskStore.createTask({ ttl: 60_000 }) }),
    getTask: async (_args, extra) => extra.taskStore.getTask(extra.taskId),
    getTaskResult: async (_args, extra) => extra.taskStore.getTaskResult(extra.taskId),
  },
);

server.registerTool("client_capabilities", { description: "What the client declared at initialize." }, () =>
  text(server.server.getClientCapabilities() ?? {}),
);

server.registerTool("ask_name", { description: "Asks the user for a name (form elicitation)." }, async () => {
  const answer = await server.server.elicitInput({
    message: "Your name?",
    requestedSchema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
  });
  return text(answer);
});

server.registerTool("list_roots", { description: "Asks the client for its roots." }, async () => text(await server.server.listRoots()));

server.registerTool("log_each_level", { description: "Logs one message at each level." }, async () => {
  for (const level of ["debug", "info", "warning", "error"]) {
    await server.sendLoggingMessage({ level, logger: "sdk-v1", data: `a ${level} message` });
  }
  return text("logged");
});

await server.connect(new StdioServerTransport());
