import { afterEach, describe, expect, it } from "vitest";
import { connectCase, type Connected } from "../case-endpoint.js";
import type { ClientName, ServerName } from "../cases.js";

const opened: Connected[] = [];

async function connect(server: ServerName, client: ClientName, serverArgs: readonly string[] = []): Promise<Connected> {
  const connected = await connectCase(server, client, { serverArgs });
  opened.push(connected);
  return connected;
}

afterEach(async () => {
  await Promise.all(opened.splice(0).map((connected) => connected.close()));
});

describe("bench clients", () => {
  it.each<[ServerName, ClientName]>([
    ["raw-stdio", "mca"],
    ["raw-stdio", "sdk"],
    ["raw-stdio", "raw"],
    ["sdk-stdio", "mca"],
    ["sdk-stdio", "raw"],
    ["plain-http", "mca"],
    ["plain-http", "raw"],
    ["sdk-http-sse", "mca"],
  ])("get the payload they ask for from the %s server with the %s client", async (server, client) => {
    const { client: bench } = await connect(server, client);
    expect([await bench.call(0), await bench.call(70_000)]).toEqual([0, 70_000]);
  });

  it.each<ClientName>(["mca", "sdk", "raw"])("follow every page of a paged tools/list (%s)", async (client) => {
    const { client: bench } = await connect("raw-stdio", client, ["--tools", "9", "--page-size", "2"]);
    expect(await bench.listTools()).toBe(9);
  });
});
