// A sandboxed command's HTTP(S) through mca's proxy, end to end: real bubblewrap, the real forwarder inside,
// real curl and npm, and a loopback HTTP server standing in for the internet (the test's dialer maps every
// domain to it, as the real one never reaches the host's loopback).
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import { connect } from "node:net";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { parseRule, type ApprovalRequest, type Rule } from "../kernel/index.js";
import { createBashTool } from "./bash.js";
import { createDomainAccess, type DomainApprover } from "./domain-access.js";
import { isUnreachable, parseAuthority, type Dialer } from "./network-proxy.js";
import { BUBBLEWRAP, describeWithBubblewrap } from "./test-support/bubblewrap.js";
import { callTool } from "./test-support/call-tool.js";
import { tempProjectPerTest } from "./test-support/temp-project.js";

interface Seen {
  readonly method: string;
  readonly url: string;
  readonly host: string | undefined;
}

/** The stand-in internet: answers every request with its Host and path, and a small npm registry document. */
async function startInternet(): Promise<{ readonly server: Server; readonly port: number; readonly seen: Seen[] }> {
  const seen: Seen[] = [];
  const server = createServer((request, response) => {
    const headers: IncomingHttpHeaders = request.headers;
    seen.push({ method: request.method ?? "", url: request.url ?? "", host: headers.host });
    if (request.url === "/left-pad") {
      const packument = { name: "left-pad", "dist-tags": { latest: "1.3.0" }, versions: { "1.3.0": { name: "left-pad", version: "1.3.0", dist: { tarball: "http://registry.test/left-pad/-/left-pad-1.3.0.tgz" } } } };
      response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(packument));
      return;
    }
    const body = `hello from ${headers.host ?? "?"}${request.url ?? ""}\n`;
    // A reply of a known length (as a registry's are) beside the chunked ones.
    if (request.url === "/sized") return void response.writeHead(200, "OK", { "content-type": "text/plain", "content-length": Buffer.byteLength(body) }).end(body);
    response.writeHead(200, { "content-type": "text/plain" }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  return { server, port: typeof address === "object" && address !== null ? address.port : 0, seen };
}

function rules(allow: readonly string[], deny: readonly string[] = []): Rule[] {
  return [...allow.map((text) => parseRule(text, "allow", "--allow")), ...deny.map((text) => parseRule(text, "deny", "--deny"))].map((rule) => {
    if (rule instanceof Error) throw rule;
    return rule;
  });
}

/** An approver that answers in turn and records what each question named. */
function answering(...replies: Awaited<ReturnType<DomainApprover>>[]): { readonly asked: string[]; readonly approve: DomainApprover } {
  const asked: string[] = [];
  return {
    asked,
    approve: async (request: ApprovalRequest) => {
      asked.push(`${request.sessionAllow?.kind === "domain" ? request.sessionAllow.domain : "?"}: ${request.decision.reason}`);
      const reply = replies.shift();
      if (reply === undefined) throw new Error("asked once too often");
      return reply;
    },
  };
}

describeWithBubblewrap("bash's HTTP(S) through mca's proxy", () => {
  const project = tempProjectPerTest("mca-proxy-");
  const context = { signal: new AbortController().signal };
  let internet: Awaited<ReturnType<typeof startInternet>>;
  const dialled: string[] = [];
  const dial: Dialer = async (host, port) => {
    dialled.push(`${host}:${port}`);
    return new Promise((settle) => {
      const socket = connect({ host: "127.0.0.1", port: internet.port }, () => settle(socket));
      socket.once("error", (error) => settle(error));
    });
  };

  beforeEach(async () => {
    internet = await startInternet();
    dialled.length = 0;
  });
  afterEach(() => internet.server.close());

  const nobody: DomainApprover = async () => ({ kind: "nobody_to_ask", reason: "nobody can be asked here" });
  const bash = (ruleList: readonly Rule[], approve: DomainApprover = nobody, dialer: Dialer = dial) =>
    createBashTool(project(), {
      killGraceMs: 200,
      env: { PATH: process.env.PATH },
      dial: dialer,
      sandbox: {
        availability: BUBBLEWRAP,
        network: false,
        writable: [],
        hidden: [],
        places: { read: () => [], changed: () => undefined },
        domains: createDomainAccess({ rules: () => ruleList, approve }),
      },
    });

  it("refuses a domain a rule denies with the proxy's 403 at once, asking nobody and reaching nothing", async () => {
    const asker = answering();
    const result = await callTool(bash(rules([], ["network(denied.test)"]), asker.approve), { command: "curl -sS http://denied.test/x; curl -sS https://denied.test/y" }, context);
    expect(result.text.split("\n")).toEqual([
      "exit code 56",
      'mca refused the connection to denied.test: rule "network(denied.test)" (deny) from --deny.',
      'To allow it, add "network(denied.test)" to "allow" in your settings, or run mca with --allow "network(denied.test)"; a new domain is asked about in the chat.',
      "curl: (56) CONNECT tunnel failed, response 403",
      "",
      `[the sandbox's proxy refused the command's connections to denied.test (rule "network(denied.test)" (deny) from --deny). Do not retry: the user decides which domains commands may reach (an allow rule such as "network(registry.npmjs.org)", or the question asked when a command connects).]`,
    ]);
    expect({ asked: asker.asked, dialled, seen: internet.seen }).toEqual({ asked: [], dialled: [], seen: [] });
  });

  it("spares a command known to only read the forwarder: it gets no proxy, while any other command does", async () => {
    const environOf = async (command: string): Promise<boolean> => (await callTool(bash(rules([])), { command }, context)).text.includes("HTTPS_PROXY=http://127.0.0.1:");
    expect([await environOf("cat /proc/self/environ"), await environOf("cat /proc/self/environ; true")]).toEqual([false, true]);
  });

  it("lets through a domain an allow rule covers, plain HTTP and a CONNECT tunnel alike", async () => {
    const result = await callTool(bash(rules(["network(*.allowed.test)"])), { command: "curl -sS http://api.allowed.test/a && curl -sS --proxytunnel http://api.allowed.test:8080/b" }, context);
    expect({ result, dialled, seen: internet.seen }).toEqual({
      result: { isError: false, text: "exit code 0\nhello from api.allowed.test/a\nhello from api.allowed.test:8080/b\n" },
      dialled: ["api.allowed.test:80", "api.allowed.test:8080"],
      seen: [
        { method: "GET", url: "/a", host: "api.allowed.test" },
        { method: "GET", url: "/b", host: "api.allowed.test:8080" },
      ],
    });
  });

  it("fails a connection whose dialer throws with a 502 naming why, for plain HTTP and a tunnel alike", async () => {
    const broken = bash(rules(["network(broken.test)"]), nobody, async () => {
      throw new Error("the dialer broke");
    });
    const result = await callTool(broken, { command: "curl -sS http://broken.test/a; curl -sS https://broken.test/b" }, context);
    expect(result.text).toContain("mca's proxy: the dialer broke");
    expect(result.text).toContain("CONNECT tunnel failed, response 502");
  });

  it("passes on a reply with a content-length whole, its status line first", async () => {
    const result = await callTool(bash(rules(["network(sized.test)"])), { command: "curl -sS http://sized.test/sized" }, context);
    expect(result).toEqual({ isError: false, text: "exit code 0\nhello from sized.test/sized\n" });
  });

  it("asks about a new domain while the command runs, once, and not again in the session after 'allow for this session'", async () => {
    const asker = answering("session");
    const tool = bash([], asker.approve);
    const first = await callTool(tool, { command: "curl -sS http://new.test/1 && curl -sS http://new.test/2" }, context);
    const second = await callTool(tool, { command: "curl -sS http://new.test/3" }, context);
    expect({ first: first.text, second: second.text, asked: asker.asked }).toEqual({
      first: "exit code 0\nhello from new.test/1\nhello from new.test/2\n",
      second: "exit code 0\nhello from new.test/3\n",
      asked: ["new.test: the command connects to new.test (port 80) through the sandbox's proxy; no rule allows new.test"],
    });
  });

  it("asks again in the next command after 'allow once'", async () => {
    const asker = answering("once", "deny");
    const tool = bash([], asker.approve);
    const first = await callTool(tool, { command: "curl -sS http://new.test/1" }, context);
    const second = await callTool(tool, { command: "curl -sS http://new.test/2" }, context);
    expect({ first: first.text, second: second.isError, asked: asker.asked.length, seen: internet.seen.map((one) => one.url) }).toEqual({
      first: "exit code 0\nhello from new.test/1\n",
      second: false,
      asked: 2,
      seen: ["/1"],
    });
    expect(second.text).toContain("mca refused the connection to new.test: denied by the user.");
  });

  it("refuses without a terminal unless a rule allows, naming the rule that would", async () => {
    const reason = 'new.test needs approval (bash\'s command connects to it) and there is no terminal to ask on; run mca with --allow "network(new.test)" to allow it';
    const asker = answering({ kind: "nobody_to_ask", reason });
    const result = await callTool(bash([], asker.approve), { command: "curl -sS http://new.test/1" }, context);
    expect(result.text).toContain(`mca refused the connection to new.test: ${reason}.`);
    expect(internet.seen).toEqual([]);
  });

  it("makes npm fail at once on a refused registry, and answers it through an allowed one", async () => {
    const npm = "npm view left-pad version --registry http://registry.test/ --cache /tmp/npm-cache --no-update-notifier --fetch-retries 2";
    const denied = await callTool(bash(rules([], ["network(registry.test)"])), { command: npm }, context);
    expect({ isError: denied.isError, e403: denied.text.includes("npm ERR! code E403") || denied.text.includes("npm error code E403"), seen: internet.seen }).toEqual({ isError: true, e403: true, seen: [] });
    const allowed = await callTool(bash(rules(["network(registry.test)"])), { command: npm }, context);
    expect(allowed).toEqual({ isError: false, text: "exit code 0\n1.3.0\n" });
  });

  it("has no network for what ignores the proxy: no direct connection leaves the sandbox", async () => {
    const result = await callTool(bash(rules(["network"])), { command: `echo > /dev/tcp/127.0.0.1/${internet.port} && echo connected` }, context);
    expect(result.isError).toBe(true);
    expect(result.text).not.toContain("connected");
    expect(internet.seen).toEqual([]);
  });
});

describe("parseAuthority", () => {
  it("reads a CONNECT target: a host name (lower case, no trailing dot) or a bracketed IPv6 address, and a port", () => {
    expect(["Registry.NPMjs.org.:443", "[::1]:8080", "x:0", "a b:80", "host", "[zz]:1", "1.2.3.4:65536"].map(parseAuthority)).toEqual([
      { host: "registry.npmjs.org", port: 443 },
      { host: "[::1]", port: 8080 },
      null,
      null,
      null,
      null,
      null,
    ]);
  });
});

describe("isUnreachable", () => {
  it("is true for the host's loopback, the unspecified address and link-local, however written", () => {
    expect(["127.0.0.1", "127.8.9.1", "0.0.0.0", "169.254.169.254", "::1", "::", "fe80::1", "::ffff:127.0.0.1", "::ffff:169.254.169.254", "10.0.0.1", "93.184.216.34", "2606:4700::1"].map(isUnreachable)).toEqual([
      true, true, true, true, true, true, true, true, true, false, false, false,
    ]);
  });
});

