// A server entry's `oauth` object: a client registered by hand with the server's authorization server, the
// issuer its secret may go to, login settings, and the grants that need nobody at a browser with the key and
// token files they read (docs/oauth.md) — each checked here, where a mistake names its place.
import { isAbsolute } from "node:path";
import { issuerProblem, type OAuthClientConfig } from "../mcp/index.js";
import {
  fail,
  optionalField,
  readExpandedString,
  readExpandedStringArray,
  readNonEmptyExpandedString,
  readObject,
  readPositiveInteger,
  readString,
  rejectUnknownFields,
  requiredField,
  type Path,
  type ReadContext,
} from "./config-reader.js";
import type { JsonNode } from "./json-reader.js";

const OAUTH_FIELDS = ["clientId", "clientSecret", "issuer", "scopes", "callbackPort"];
const MAX_PORT = 65_535;

/**
 * `oauth: { clientId?, clientSecret?, issuer?, scopes?, callbackPort?, grant?, privateKeyFile?, assertionFile?,
 * idp?, dpopKeyFile? }`: a pre-registered client, the authorization server it is registered with, login
 * settings, and a grant that needs no browser with the files it reads (docs/oauth.md).
 */
export function readOAuth(node: JsonNode, path: Path, context: ReadContext): OAuthClientConfig {
  const GRANTS = ["authorization_code", "client_credentials", "jwt_bearer", "token_exchange"];
  const IDP_FIELDS = ["tokenEndpoint", "clientId", "clientSecret", "idTokenFile"];
  const oauth = readObject(node, path, context);
  rejectUnknownFields(oauth, path, [...OAUTH_FIELDS, "grant", "privateKeyFile", "assertionFile", "idp", "dpopKeyFile"], context);
  const field = (name: string): JsonNode | undefined => optionalField(oauth, name);
  const clientId = field("clientId");
  const clientSecret = field("clientSecret");
  const issuer = field("issuer");
  const scopes = field("scopes");
  const callbackPort = field("callbackPort");
  if (clientSecret !== undefined && clientId === undefined) fail(context, [...path, "clientSecret"], clientSecret.offset, "needs a clientId beside it");
  const port = callbackPort === undefined ? undefined : readPositiveInteger(callbackPort, [...path, "callbackPort"], context, "a TCP port");
  if (port !== undefined && port > MAX_PORT && callbackPort !== undefined) fail(context, [...path, "callbackPort"], callbackPort.offset, `must be a TCP port (1 to ${MAX_PORT})`);
  // Keys and tokens are read from files at each use; a relative path would depend on where mca runs.
  const file = (name: string, at: Path, value: JsonNode): string =>
    readExpandedString(value, at, context, (text) => (isAbsolute(text) ? undefined : `${name} must be an absolute path (after \${VAR} expansion)`));
  const grantNode = field("grant");
  const grant = grantNode === undefined ? "authorization_code" : readString(grantNode, [...path, "grant"], context);
  if (grantNode !== undefined && !GRANTS.includes(grant)) fail(context, [...path, "grant"], grantNode.offset, `must be one of ${GRANTS.join(", ")}`);
  const privateKeyFile = field("privateKeyFile");
  const assertionFile = field("assertionFile");
  const idp = field("idp");
  const dpopKeyFile = field("dpopKeyFile");
  const needs = (what: string): never => fail(context, [...path, "grant"], grantNode?.offset ?? oauth.offset, `${JSON.stringify(grant)} needs ${what}`);
  const only = (name: string, value: JsonNode | undefined, kind: string): void => {
    if (value !== undefined && grant !== kind) fail(context, [...path, name], value.offset, `is only for "grant": ${JSON.stringify(kind)}`);
  };
  only("assertionFile", assertionFile, "jwt_bearer");
  only("idp", idp, "token_exchange");
  if (privateKeyFile !== undefined && clientSecret !== undefined) fail(context, [...path, "privateKeyFile"], privateKeyFile.offset, "takes the place of clientSecret: give one of them");
  if (grant !== "authorization_code" && clientId === undefined) needs("a clientId");
  if (grant === "client_credentials" && clientSecret === undefined && privateKeyFile === undefined) needs("a clientSecret or a privateKeyFile");
  if (grant === "jwt_bearer" && assertionFile === undefined) needs("an assertionFile (the workload's identity token)");
  if (grant === "token_exchange" && idp === undefined) needs('an "idp" (the identity provider the ID token is exchanged at)');
  const readIdp = (value: JsonNode) => {
    const at = [...path, "idp"];
    const object = readObject(value, at, context);
    rejectUnknownFields(object, at, IDP_FIELDS, context);
    const secret = optionalField(object, "clientSecret");
    const endpointProblem = (text: string): string | undefined => {
      const problem = issuerProblem(text);
      return problem === undefined ? undefined : "must be an https:// URL (http:// only on localhost, 127.x.x.x or [::1]) without query or fragment";
    };
    return {
      tokenEndpoint: readExpandedString(requiredField(object, "tokenEndpoint", at, context), [...at, "tokenEndpoint"], context, endpointProblem),
      clientId: readNonEmptyExpandedString(requiredField(object, "clientId", at, context), [...at, "clientId"], context),
      ...(secret === undefined ? {} : { clientSecret: readNonEmptyExpandedString(secret, [...at, "clientSecret"], context) }),
      idTokenFile: file("idTokenFile", [...at, "idTokenFile"], requiredField(object, "idTokenFile", at, context)),
    };
  };
  const machineGrant =
    grant === "client_credentials"
      ? { kind: "client_credentials" as const }
      : grant === "jwt_bearer" && assertionFile !== undefined
        ? { kind: "jwt_bearer" as const, assertionFile: file("assertionFile", [...path, "assertionFile"], assertionFile) }
        : grant === "token_exchange" && idp !== undefined
          ? { kind: "token_exchange" as const, idp: readIdp(idp) }
          : undefined;
  return {
    ...(clientId === undefined ? {} : { clientId: readNonEmptyExpandedString(clientId, [...path, "clientId"], context) }),
    ...(clientSecret === undefined ? {} : { clientSecret: readNonEmptyExpandedString(clientSecret, [...path, "clientSecret"], context) }),
    ...(issuer === undefined ? {} : { issuer: readExpandedString(issuer, [...path, "issuer"], context, issuerProblem) }),
    ...(scopes === undefined ? {} : { scopes: readExpandedStringArray(scopes, [...path, "scopes"], context) }),
    ...(port === undefined ? {} : { callbackPort: port }),
    ...(machineGrant === undefined ? {} : { grant: machineGrant }),
    ...(privateKeyFile === undefined ? {} : { privateKeyFile: file("privateKeyFile", [...path, "privateKeyFile"], privateKeyFile) }),
    ...(dpopKeyFile === undefined ? {} : { dpopKeyFile: file("dpopKeyFile", [...path, "dpopKeyFile"], dpopKeyFile) }),
  };
}
