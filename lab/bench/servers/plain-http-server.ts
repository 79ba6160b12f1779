// The plain HTTP anchor: node:http, one JSON reply per POST, no SDK and no validation, so that what a
// client measures against it is mostly the client's own cost.
import http from "node:http";
import { answerLine } from "./answers.js";
import { announceWhenListening } from "./listening.js";
import { readServerArgs } from "./server-args.js";

const args = readServerArgs(process.argv.slice(2));

const server = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on("data", (chunk: Buffer) => chunks.push(chunk));
  req.on("end", () => {
    const message: unknown = JSON.parse(Buffer.concat(chunks).toString("utf8"));
    if (typeof message !== "object" || message === null || !("method" in message) || typeof message.method !== "string") {
      res.writeHead(400).end();
      return;
    }
    if (!("id" in message)) {
      res.writeHead(202).end();
      return;
    }
    const body = answerLine(args, message.id, message.method, "params" in message ? message.params : undefined);
    res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(body) });
    res.end(body);
  });
});

announceWhenListening(server);
