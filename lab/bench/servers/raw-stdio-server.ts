// The raw stdio anchor: newline-delimited JSON-RPC on stdin/stdout with no SDK and no validation, so that
// what a client measures against it is the client's own cost. Exits when stdin closes.
import { answerLine } from "./answers.js";
import { readServerArgs } from "./server-args.js";

const args = readServerArgs(process.argv.slice(2));
let pending = "";

function handle(line: string): void {
  if (line.trim() === "") return;
  const message: unknown = JSON.parse(line);
  if (typeof message !== "object" || message === null || !("method" in message) || !("id" in message)) return;
  const { id, method } = message;
  if (typeof method !== "string") return;
  const params = "params" in message ? message.params : undefined;
  const reply = (): void => void process.stdout.write(`${answerLine(args, id, method, params)}\n`);
  if (method === "server/discover" && args.discoverDelayMs > 0) setTimeout(reply, args.discoverDelayMs);
  else reply();
}

process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk: string) => {
  // Requests are small: keeping the unfinished tail as a string is linear enough here.
  const lines = (pending + chunk).split("\n");
  pending = lines.pop() ?? "";
  for (const line of lines) handle(line);
});
process.stdin.on("end", () => process.exit(0));
process.stdout.on("error", () => process.exit(0));
