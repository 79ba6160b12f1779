// Where the config's client secret may go. An MCP server names its own authorization server (RFC 9728
// `authorization_servers`), so a hostile or compromised server could name the attacker's and be sent the
// secret; it goes unasked only to the issuer the config names (`oauth.issuer`), or, when the config names
// none, to one on the MCP server's own origin — the party the user already chose to talk to.

/** An issuer the config's client secret would go to without the config saying so: what the user is shown. */
export type IssuerQuestion = {
  /** The server's alias. */
  readonly server: string;
  /** Scheme, host and port of the MCP server. */
  readonly serverOrigin: string;
  /** The issuer the server names, as parsed (percent-encoded: no control characters survive), without a trailing slash. */
  readonly issuer: string;
  readonly issuerOrigin: string;
  /** The config's `oauth.issuer`, when it names one. */
  readonly configuredIssuer?: string;
};

export type SecretDestination =
  | { readonly verdict: "configured" }
  | { readonly verdict: "server-origin" }
  | { readonly verdict: "elsewhere"; readonly question: IssuerQuestion };

function parsed(url: string): URL | undefined {
  try {
    return new URL(url);
  } catch {
    return undefined;
  }
}

/**
 * Where requests for an issuer go: discovery builds its well-known URLs from the origin and the path without
 * a trailing slash (query and fragment dropped), so two issuers with the same key reach the same server.
 */
function issuerKey(url: URL): string {
  return `${url.origin}${url.pathname.replace(/\/$/, "")}`;
}

/** Whether two issuer URLs reach the same authorization server; an unparsable one is the same as nothing. */
export function sameIssuer(a: string, b: string): boolean {
  const [left, right] = [parsed(a), parsed(b)];
  return left !== undefined && right !== undefined && issuerKey(left) === issuerKey(right);
}

const LOOPBACK_HOSTS = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/;

/**
 * `oauth.issuer` as the config may write it: RFC 8414 §2 issuers are https URLs without query or fragment;
 * plain http only on this machine (a test's or a local server's), where nothing crosses a network in clear.
 */
export function issuerProblem(text: string): string | undefined {
  const url = parsed(text);
  const problem = "must be an https:// URL (http:// only on localhost, 127.x.x.x or [::1]) without query or fragment: the authorization server the client secret is for";
  if (url === undefined || url.search !== "" || url.hash !== "" || url.username !== "" || url.password !== "") return problem;
  if (url.protocol === "https:" || (url.protocol === "http:" && LOOPBACK_HOSTS.test(url.hostname))) return undefined;
  return problem;
}

/** Of the authorization servers a resource lists, the one the config names when it is among them, else the first. */
export function chooseIssuer(authorizationServers: readonly string[], configured: string | undefined): string {
  const named = configured === undefined ? undefined : authorizationServers.find((issuer) => sameIssuer(issuer, configured));
  return named ?? authorizationServers[0] ?? "";
}

/** A server's text that is no URL, quoted with everything but printable ASCII escaped: it reaches messages printed as they are. */
function quotedAscii(text: string): string {
  return JSON.stringify(text).replace(/[^\x20-\x7e]/g, (unit) => `\\u${unit.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

export type DestinationInput = {
  readonly server: string;
  readonly serverUrl: string;
  /** The config's `oauth.issuer`. */
  readonly configuredIssuer: string | undefined;
  /** The issuer the server names. */
  readonly issuer: string;
};

/** Whether the config's client secret may go to `issuer` unasked, and if not, what to ask or say. */
export function secretDestination(input: DestinationInput): SecretDestination {
  const { configuredIssuer } = input;
  const server = new URL(input.serverUrl);
  const issuer = parsed(input.issuer);
  if (issuer !== undefined && configuredIssuer !== undefined && sameIssuer(input.issuer, configuredIssuer)) return { verdict: "configured" };
  if (issuer !== undefined && configuredIssuer === undefined && issuer.origin === server.origin) return { verdict: "server-origin" };
  const question: IssuerQuestion = {
    server: input.server,
    serverOrigin: server.origin,
    issuer: issuer === undefined ? quotedAscii(input.issuer) : issuerKey(issuer),
    issuerOrigin: issuer?.origin ?? quotedAscii(input.issuer),
    ...(configuredIssuer === undefined ? {} : { configuredIssuer }),
  };
  return { verdict: "elsewhere", question };
}

/** One sentence on why the issuer is not where the secret goes unasked; the question and the error both start with it. */
export function describeIssuer(question: IssuerQuestion): string {
  const { server, serverOrigin, issuerOrigin, configuredIssuer } = question;
  const named = `${server} (at ${serverOrigin}) names authorization server ${issuerOrigin}`;
  return configuredIssuer === undefined
    ? `${named}, which is not on the server's own origin, and the config names no oauth.issuer`
    : `${named}, which is not the config's oauth.issuer (${configuredIssuer})`;
}
