// The tools of the scale group's servers: a deterministic catalogue of definitions shaped like a real
// server's (a verb_noun name, a two-sentence description, three or four described parameters), so that
// their size in a request and the words a search ranks are those of GitHub-, Jira- or database-like servers
// rather than of `filler_0001`. Server `s` offers tool `i` of its domain; ten domains of 100 tools each.

export interface CatalogueTool {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: { readonly type: "object"; readonly properties: Readonly<Record<string, { readonly type: string; readonly description: string }>>; readonly required: readonly string[] };
}

/** Each domain: what it is called and its ten nouns; a verb of VERBS times a noun names a tool. */
const DOMAINS: readonly { readonly title: string; readonly nouns: readonly string[] }[] = [
  { title: "the code host", nouns: ["issue", "pull_request", "branch", "commit", "release", "label", "milestone", "workflow_run", "review", "gist"] },
  { title: "the issue tracker", nouns: ["ticket", "sprint", "epic", "board", "worklog", "component", "version", "filter", "watcher", "attachment"] },
  { title: "the team chat", nouns: ["channel", "message", "thread", "reaction", "user_group", "reminder", "bookmark", "canvas", "emoji", "huddle"] },
  { title: "the browser", nouns: ["page", "tab", "cookie", "screenshot", "console_log", "network_request", "form_field", "download", "frame", "dialog"] },
  { title: "the database", nouns: ["table", "row", "index", "view", "schema", "migration", "query_plan", "role", "sequence", "backup"] },
  { title: "the cloud account", nouns: ["bucket", "instance", "volume", "load_balancer", "dns_record", "certificate", "secret", "function", "log_group", "alarm"] },
  { title: "the document store", nouns: ["document", "folder", "comment", "revision", "permission", "template", "spreadsheet", "slide", "link", "tag"] },
  { title: "the calendar and mail", nouns: ["event", "invitation", "email", "draft", "contact", "calendar", "attendee", "signature", "mail_rule", "room"] },
  { title: "the payments service", nouns: ["invoice", "customer", "subscription", "refund", "payout", "coupon", "price", "dispute", "charge", "tax_rate"] },
  { title: "the observability platform", nouns: ["dashboard", "monitor", "incident", "trace", "metric", "log_query", "service_map", "slo", "notebook", "on_call_shift"] },
];

type Parameter = readonly [name: string, type: string, description: string];

/** Each verb: what the tool does (`$` is the noun), what it returns, and its parameters beyond the noun's id. */
const VERBS: readonly { readonly verb: string; readonly does: string; readonly returns: string; readonly parameters: readonly Parameter[] }[] = [
  {
    verb: "list",
    does: "Lists every $ visible to the signed-in account, newest first, one page at a time",
    returns: "Returns at most `limit` entries and a cursor for the next page.",
    parameters: [["limit", "integer", "How many to return (1-100, default 30)."], ["cursor", "string", "The cursor of the previous page."], ["sort", "string", "created, updated or name."]],
  },
  { verb: "get", does: "Reads one $ with all of its fields and the people who changed it last", returns: "Returns the $ as JSON, or an error naming the id when it does not exist.", parameters: [] },
  {
    verb: "create",
    does: "Creates a new $ with the given title and body; fields not given take the project's defaults",
    returns: "Returns the id and web address of the new $.",
    parameters: [["title", "string", "A short title, at most 256 characters."], ["body", "string", "Markdown text."], ["labels", "array", "Names of labels to attach."]],
  },
  {
    verb: "update",
    does: "Changes the given fields of an existing $ and leaves the others as they are",
    returns: "Returns the $ as it is after the change.",
    parameters: [["fields", "object", "The fields to change and their new values."], ["expected_version", "integer", "Refuse the change if the $ changed since this version."]],
  },
  { verb: "delete", does: "Deletes a $ for good; this cannot be undone from here", returns: "Returns nothing on success.", parameters: [["confirm", "boolean", "Must be true."]] },
  {
    verb: "search",
    does: "Searches the $ entries by words in their text, with filters on author, state and date",
    returns: "Returns the best matches first, each with a snippet around the words found.",
    parameters: [["query", "string", "Words to look for; quotes for an exact phrase."], ["author", "string", "Only those of this user."], ["since", "string", "An ISO 8601 date."]],
  },
  { verb: "archive", does: "Moves a $ out of the active list without deleting it, so that it can be restored later", returns: "Returns the archived $.", parameters: [["reason", "string", "Shown to the people who follow it."]] },
  {
    verb: "export",
    does: "Writes a $ and its history to a file in the given format for backup or review",
    returns: "Returns a temporary download address valid for one hour.",
    parameters: [["format", "string", "json, csv or markdown."], ["include_history", "boolean", "Also export every earlier revision."]],
  },
  {
    verb: "watch",
    does: "Subscribes the signed-in account to changes of a $, by mail or in the app",
    returns: "Returns the subscription, which `watch` with `stop` ends.",
    parameters: [["channel", "string", "mail or app."], ["stop", "boolean", "End the subscription instead."]],
  },
  {
    verb: "count",
    does: "Counts the $ entries matching a filter without listing them, grouped by a field if asked",
    returns: "Returns the total and, when grouped, one count per value.",
    parameters: [["filter", "string", "The same filter language as search."], ["group_by", "string", "A field name."]],
  },
];

/** A server offers at most this many distinct tools: one per verb and noun of its domain. */
export const CATALOGUE_TOOLS_PER_SERVER = VERBS.length * 10;

/** The entry at `index` modulo the list's length (the tables are never empty). */
function cycle<T>(list: readonly T[], index: number): T {
  const entry = list[index % list.length];
  if (entry === undefined) throw new Error("an empty catalogue table");
  return entry;
}

/** The verbs whose tool works on many entries, so takes no id of one. */
const WITHOUT_ID = new Set(["list", "search", "count", "create"]);

/** Tool `index` (wrapping at CATALOGUE_TOOLS_PER_SERVER) of server `server`, whose domain is `server` modulo ten. */
export function catalogueTool(server: number, index: number): CatalogueTool {
  const domain = cycle(DOMAINS, server);
  const verb = cycle(VERBS, Math.floor(index / 10));
  const noun = cycle(domain.nouns, index);
  const words = noun.replaceAll("_", " ");
  const idParameter: Parameter = [`${noun}_id`, "string", `The id of the ${words}.`];
  const parameters = WITHOUT_ID.has(verb.verb) ? verb.parameters : [idParameter, ...verb.parameters];
  return {
    name: `${verb.verb}_${noun}`,
    description: `${verb.does.replaceAll("$", words)}, in ${domain.title} of workspace ${server}. ${verb.returns.replaceAll("$", words)}`,
    inputSchema: {
      type: "object",
      properties: Object.fromEntries(parameters.map(([name, type, description]) => [name, { type, description }])),
      required: parameters.slice(0, 1).map(([name]) => name),
    },
  };
}
