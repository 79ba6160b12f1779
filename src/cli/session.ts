// A session: what every mode runs with. Its one agent (rules, model, tools, the system prompt, snapshots,
// the transcript and, with --resume, the earlier history), the servers and what a person can do with them,
// what its turns left behind (/last, /cost), and the runtime it writes through. A mode attaches itself to hear
// the agent's events and answer its approvals; configuration problems are an Error for main (exit 2).
import { homedir } from "node:os";
import { join } from "node:path";
import { createAgent, describeError, redactEvents, serverSideName, unmatchedRules, type ProtectedFolder, type GateTool, type AgentEvent, type Redact, type Tool } from "../kernel/index.js";
import { createResourceTools, offersResources, READ_RESOURCE_RULE_NAME, toolPrefix, type ResourceSource } from "../mcp/index.js";
import type { LastResult, Session, SessionIo, SessionServers } from "./session-seam.js";
import { createCostTally, estimateCost, type CostTally } from "./cost.js";
import { projectFileReader } from "./file-mentions.js";
import { createMentions } from "./mentions.js";
import { mapClaudeRules } from "./claude-rules.js";
import { bypassRefusal, permissionModeInstructions, permissionModeRules } from "./permission-mode.js";
import { promptFlagText, readProjectInstructions, systemPrompt, type PromptChanges } from "./system-prompt.js";
import { createSnapshotFiles, createSpillFiles, createTreeCheckpoints, findSessionToResume, oldStateNotice, openTranscript, pruneSpillFiles, userStateDir, type ProjectState, type SessionMode } from "../session/index.js";
import { createDomainAccess, createLocalTools, findSandbox, homeInProjectNotice, sandboxPlaces, type SandboxAvailability } from "../tools/index.js";
import type { CommonOptions, PermissionMode } from "./program.js";
import type { Runtime } from "./runtime.js";
import { addAllowRule, ConfigError, gitSurfaceReader, loadPromptLimits, loadRules, loadSandboxSettings, loadToolSearch, PROJECT_SETTINGS, projectFileRead, readProtectedFolders, readUserSettings, userConfigDir, userSettingsFile, type SandboxSettings } from "../config/index.js";
import { chooseModel, createSessionModel } from "./session-model.js";
import type { SettledTrust } from "./trust.js";

export type { Session, SessionIo } from "./session-seam.js";

export interface SessionSetupDeps {
  readonly runtime: Runtime;
  readonly projectDir: string;
  /** The folder outside the project where this session's transcript, snapshots and checkpoints go. */
  readonly state: ProjectState;
  readonly options: CommonOptions;
  /**
   * The project's own files as read for the trust decision: its settings' allow rules apply when the user
   * trusts the folder; its deny and ask rules always do.
   */
  readonly project: SettledTrust;
  /** Names this run's transcript file; made by main, which may read the clock. */
  readonly sessionId: string;
  /** How this run goes and when it started (ISO 8601): the transcript's first line, for `mca sessions` and `--resume`. */
  readonly mode: SessionMode;
  readonly startedAt: string;
  readonly servers: SessionServers;
  /** Tools mounted from MCP servers, next to the local ones. */
  readonly remoteTools: readonly Tool[];
  /**
   * The mounted servers' connections: the resources of those that declare them are offered through two
   * local tools (list_mcp_resources, read_mcp_resource) and attached by `@alias:uri` in a prompt.
   */
  readonly resourceSources: readonly ResourceSource[];
  /** Every server of the config, mounted or not: a rule naming a tool of one that did not come up is no typo. */
  readonly serverAliases: readonly string[];
  /** A stand-in tool for a name of an MCP server that never came up, so its call names the reason. */
  readonly findTool: (name: string) => Tool | undefined;
  /** A mounted server's instructions for the model, by alias: shown beside its tools' names when they are deferred. */
  readonly serverInstructions: (alias: string) => string | undefined;
  /** Whether to tell that the offline mock answers: not for `mca tools` / `mca call`, which never ask the model. */
  readonly announceModel: boolean;
}

export async function setUpSession(deps: SessionSetupDeps): Promise<Session | Error> {
  const { projectDir, options, runtime } = deps;
  const { env, warn, redact } = runtime;
  const home = env.HOME ?? homedir();
  const projectSettings = { read: projectFileRead(deps.project.files, PROJECT_SETTINGS), trusted: deps.project.trusted };
  const userSettings = readUserSettings(userSettingsFile(env));
  const ownRules = loadRules(userSettings, projectSettings, options);
  if (ownRules instanceof Error) return ownRules;
  // Claude Code's --allowedTools / --disallowedTools, as mca's rules; a tool mca has not is said once and left out.
  const claudeRules = mapClaudeRules(options.allowedTools, options.disallowedTools);
  if (claudeRules instanceof Error) return claudeRules;
  for (const line of claudeRules.warnings) warn(line);
  const mode = options.permissionMode ?? "default";
  const prompts = promptChanges(options, mode);
  if (prompts instanceof Error) return prompts;
  const sandboxSettings = loadSandboxSettings(userSettings, projectSettings, { home, projectDir });
  if (sandboxSettings instanceof Error) return sandboxSettings;
  const toolSearch = loadToolSearch(userSettings, projectSettings);
  if (toolSearch instanceof Error) return toolSearch;
  // Found without running anything (start-up pays no process for it); bubblewrap is probed on its first use.
  const availability = sandboxOf(sandboxSettings, options, env);
  const bypassRefused = mode === "bypassPermissions" ? await bypassRefusal(availability) : null;
  if (bypassRefused !== null) return bypassRefused;

  const choice = chooseModel(env, options.model, deps.mode);
  if (choice instanceof Error) return choice;
  if (deps.announceModel && choice.kind === "mock" && choice.notice !== null) warn(choice.notice);
  if (deps.announceModel && (choice.kind === "mock" || choice.kind === "scripted") && options.model !== undefined) {
    warn(`--model ${JSON.stringify(options.model)} has no effect: the ${choice.kind === "mock" ? "offline mock" : "scripted"} model answers`);
  }
  const model = await createSessionModel(choice);
  if (model instanceof Error) return model;

  try {
    const notice = oldStateNotice(deps.state);
    if (notice !== null) warn(`mca: ${notice}`);
  } catch {
    // The notice is a courtesy: a state folder that cannot be written fails below, with its reason.
  }
  const resumed = options.resume ? findSessionToResume(deps.state, options.resumeId, options.continueNewest === true) : null;
  // `--resume` takes an id, as Claude Code's does; a prompt taken for one is the likely mistake.
  if (resumed instanceof Error) return new Error(`${resumed.message}; a prompt goes after the id (mca -p --resume <id> "<prompt>"), and -c goes on with the newest session`);
  if (options.resume && resumed === null) warn("no earlier chat session in this project: starting a new one (`mca sessions` lists them all)");
  const history = resumed?.messages ?? null;
  if (availability.kind !== "seatbelt" && availability.notice !== null) warn(availability.notice);
  const homeNotice = availability.kind === "none" ? null : homeInProjectNotice(projectDir, home);
  if (homeNotice !== null) warn(homeNotice);
  // The tokens of MCP logins (mcp-login.ts's loginsFolder) are mca's credentials: no command reads them.
  // What mca or git obeys later stays read-only, present or not (sandbox-places.ts); a trusted project's
  // server programs among it, as mca runs them outside the sandbox.
  const hidden = [join(userConfigDir(env), "oauth")];
  const programs = deps.project.trusted ? (deps.project.files?.programs ?? []) : [];
  // One reading of git's places for the sandbox and the gate, asked of git at the first call that needs it
  // (start-up runs no git) and again when git's files change.
  const git = gitSurfaceReader(projectDir, { env });
  const places = sandboxPlaces({ projectDir, env, ownFolders: [userConfigDir(env), userStateDir(env, home)], programs, git });
  // Without the network, a sandboxed command's HTTP(S) goes through mca's proxy, domain by domain: by the
  // user's network(…) rules, or asked while it runs, of the mode attached to the session.
  const domainRules = [...ownRules, ...claudeRules.rules];
  // "Always" keeps the domain's rule in the user's own settings file, never a project's.
  const keepRule = async (rule: string): Promise<void> => {
    const file = userSettingsFile(env);
    const added = await addAllowRule(file, rule);
    if (added instanceof ConfigError) warn(`mca: ${rule} is allowed for this session only: it could not be added to your settings (${added.message})`);
  };
  const modes = sessionEvents(redact);
  const domains = createDomainAccess({ rules: () => domainRules, approve: modes.approve, keepRule });
  const sandbox = { availability, network: sandboxSettings.network, writable: sandboxSettings.writable, hidden, places, domains };
  const { resourceSources } = deps;
  // Results cut to the budget are kept whole with the session; those of sessions removed since go now.
  const spill = createSpillFiles(deps.state, deps.sessionId);
  pruneSpillFiles(deps.state, deps.sessionId);
  const tools = [...createLocalTools(projectDir, { sandbox, isSpillFile: spill.isSpillFile }), ...createResourceTools(resourceSources), ...deps.remoteTools];
  // The mode's rules last: its allows yield to every deny and ask rule, as the gate's strictest verdict wins.
  const rules = [...ownRules, ...claudeRules.rules, ...permissionModeRules(mode, tools)];
  const protectedFolders = (): readonly ProtectedFolder[] => readProtectedFolders(projectDir, git.read());
  // A write a person approved may have made a repository (a nested `.git`): git's places are asked again.
  const writeTools = new Set(tools.filter((tool) => tool.kind === "write").map((tool) => tool.name));
  const limits = loadPromptLimits(userSettings, projectSettings);
  if (limits instanceof Error) return limits;
  const maxTurns = options.maxTurns ?? limits.maxTurns;
  const maxBudgetUsd = options.maxBudgetUsd ?? limits.maxBudgetUsd;
  // A server that did not come up has no tools to match: a rule naming one of them is no typo; nor is one naming reads of a server's resources.
  const absent = deps.serverAliases.filter((alias) => !deps.remoteTools.some((tool) => tool.source === alias)).map(toolPrefix);
  const reads: GateTool[] = resourceSources.filter(offersResources).map(({ alias }) => ({ name: serverSideName(alias, READ_RESOURCE_RULE_NAME), kind: "remote", source: alias, originalName: READ_RESOURCE_RULE_NAME, serverRuleName: READ_RESOURCE_RULE_NAME }));
  for (const rule of unmatchedRules(rules, [...tools, ...reads])) {
    if (absent.some((prefix) => rule.pattern.text.startsWith(prefix))) continue;
    warn(`mca: rule ${JSON.stringify(rule.pattern.text)} (${rule.verdict}) from ${rule.origin} names no tool; check its spelling (\`mca tools\` lists them)`);
  }
  // Sessions never share snapshots; a resumed one goes on in the folder of the one it resumed, so /undo reaches back.
  const snapshotFolder = resumed?.snapshots ?? deps.sessionId;
  const snapshots = createSnapshotFiles(deps.state, { folder: snapshotFolder, checkpoints: createTreeCheckpoints(deps.state, snapshotFolder, env) });
  let transcript;
  try {
    transcript = openTranscript(deps.state, deps.sessionId, { mode: deps.mode, startedAt: deps.startedAt, snapshots: snapshotFolder }, redact);
  } catch (error) {
    return new Error(`cannot open the session transcript in ${deps.state.dir}: ${describeError(error)}`);
  }
  const system = systemPrompt(projectDir, readProjectInstructions(projectDir), prompts);

  const budget = promptBudget(maxBudgetUsd);
  const agent = createAgent({
    model: model.answering,
    tools,
    rules,
    protectedFolders,
    system,
    approve: modes.approve,
    snapshots,
    transcript,
    emit: (event) => {
      budget.observe(event);
      if (event.type === "tool_end" && writeTools.has(event.tool) && !event.isError) git.invalidate();
      modes.emit(event);
    },
    ...(maxTurns === undefined ? {} : { limits: { maxTurnsPerPrompt: maxTurns } }),
    ...(budget.overBudget === undefined ? {} : { overBudget: budget.overBudget }),
    redact,
    ...(history === null ? {} : { history }),
    findTool: deps.findTool,
    toolSearch,
    serverInstructions: deps.serverInstructions,
    loadedTools: resumed?.loadedTools ?? [],
    spill,
    otherSessionAllows: domains.sessionAllows,
  });
  const banner = [`mca · model ${model.answering.name} · ${tools.length} tools · ${projectDir} · session ${deps.sessionId}`];
  // The conversation itself is shown by the chat (resumed-view.ts); -p and pipe mode show none of it.
  if (resumed !== null) banner.push(`resumed session ${resumed.id} (${resumed.messages.length} messages)`);
  // `@path` of a project file is read by the session's own read_file, and a deny rule on it refuses the
  // mention: judged by the agent, as an `@alias:uri` mention's read is (commands.ts).
  const readFileTool = tools.find((tool) => tool.name === "read_file" && tool.source === "local");
  const fileReader =
    readFileTool === undefined
      ? undefined
      : projectFileReader(projectDir, readFileTool, (path) => {
          const decision = agent.decide(readFileTool.name, { path });
          return decision.verdict === "deny" ? `refused: ${decision.reason}` : undefined;
        });
  const mentions = createMentions(resourceSources, fileReader);
  // Listed once now, in the background, for Tab after `@alias:` in the chat.
  if (deps.mode === "chat") mentions.refresh();
  return {
    id: deps.sessionId,
    projectDir,
    state: deps.state,
    banner: banner.join("\n"),
    agent,
    attach: modes.attach,
    model,
    servers: deps.servers,
    mentions,
    lastResult: modes.lastResult,
    costs: modes.costs,
    runtime,
  };
}

/** What --system-prompt, --append-system-prompt (or their files) and the permission mode change of the system prompt. */
function promptChanges(options: CommonOptions, mode: PermissionMode): PromptChanges | Error {
  const replace = options.systemPrompt === undefined ? undefined : promptFlagText(options.systemPrompt, "--system-prompt", process.cwd());
  if (replace instanceof Error) return replace;
  const append = options.appendSystemPrompt === undefined ? undefined : promptFlagText(options.appendSystemPrompt, "--append-system-prompt", process.cwd());
  if (append instanceof Error) return append;
  const modeInstructions = permissionModeInstructions(mode);
  return { ...(replace === undefined ? {} : { replace }), ...(append === undefined ? {} : { append }), ...(modeInstructions === undefined ? {} : { modeInstructions }) };
}

/** Where bash runs in this run: outside any sandbox when the user turned it off (their choice, so no notice), else in what this machine has. */
function sandboxOf(settings: SandboxSettings, options: CommonOptions, env: Readonly<Record<string, string | undefined>>): SandboxAvailability {
  if (options.noSandbox === true) return { kind: "none", why: "turned off with --no-sandbox", notice: null };
  if (!settings.enabled) return { kind: "none", why: "turned off in the settings", notice: null };
  return findSandbox(process.platform, env);
}

/**
 * The mode attached now answers the agent's approvals and hears its events; while none is, nobody is asked
 * (the call is refused, saying so) and the events go nowhere.
 */
function modeSwitchboard(): { readonly approve: SessionIo["approve"]; emit(event: AgentEvent): void; attach(mode: SessionIo): () => void } {
  let attached: SessionIo | undefined;
  return {
    approve: (request) => attached?.approve(request) ?? Promise.resolve({ kind: "nobody_to_ask", reason: "no mode is running to ask in" }),
    emit: (event) => attached?.emit(event),
    attach: (mode) => {
      // One mode runs a session at a time: a second one would take the first's approvals and events unseen.
      if (attached !== undefined) throw new Error("a mode is attached to this session already");
      attached = mode;
      return () => {
        if (attached === mode) attached = undefined;
      };
    },
  };
}

export interface SessionEvents extends Pick<Session, "attach" | "lastResult" | "costs"> {
  readonly approve: SessionIo["approve"];
  emit(event: AgentEvent): void;
}

/**
 * The agent's side of a session: who answers its approvals (the mode attached) and where its events go —
 * redacted, kept for /last and /cost, then to the mode attached. What a mode prints, the model's streamed
 * words included, is redacted on the way to it.
 */
export function sessionEvents(redact: Redact): SessionEvents {
  const modes = modeSwitchboard();
  const record = sessionRecord();
  const emit = redactEvents((event) => {
    record.observe(event);
    modes.emit(event);
  }, redact);
  return { approve: modes.approve, emit, attach: modes.attach, lastResult: record.lastResult, costs: record.costs };
}

/** What the session's turns leave for /last and /cost, in every mode, read from the agent's events. */
function sessionRecord(): { observe(event: AgentEvent): void; lastResult(): LastResult | undefined; readonly costs: CostTally } {
  const costs = createCostTally();
  let last: LastResult | undefined;
  return {
    observe: (event) => {
      if (event.type === "tool_end") last = { tool: event.tool, text: event.text, truncated: event.truncated, ...(event.spill === undefined ? {} : { spill: event.spill }) };
      if (event.type === "usage") costs.add(event.model, event.usage);
    },
    lastResult: () => last,
    costs,
  };
}

/**
 * What one prompt has spent, from the usage events of its requests (estimated from list prices; a model
 * whose price is unknown counts nothing), and the sentence that stops it at `maxUsd`.
 */
function promptBudget(maxUsd: number | undefined): { observe(event: AgentEvent): void; readonly overBudget?: () => string | null } {
  let spentUsd = 0;
  const observe = (event: AgentEvent): void => {
    if (event.type === "usage") spentUsd += estimateCost(event.model, event.usage) ?? 0;
    if (event.type === "turn_end") spentUsd = 0;
  };
  if (maxUsd === undefined) return { observe };
  return {
    observe,
    overBudget: () =>
      spentUsd < maxUsd
        ? null
        : `Turn stopped: this prompt spent about $${spentUsd.toFixed(2)}, its budget is $${maxUsd} (--max-budget-usd, "maxBudgetUsd"); send a message to continue, or raise the budget.`,
  };
}
