// A session: everything an agent needs besides a mode's approval and rendering — rules, model, tools, the
// system prompt, snapshots, the transcript and (with --resume) the earlier history. A mode gives only its
// SessionIo and gets an agent from the factory; configuration problems are an Error for main (exit 2).
import { homedir } from "node:os";
import { join } from "node:path";
import { createAgent, describeError, judgeCall, redactEvents, serverSideName, unmatchedRules, type Agent, type ProtectedFolder, type GateTool, type AgentEvent, type ApprovalAnswer, type ApprovalRequest, type Model, type TokenCountRequest, type NobodyToAsk, type Redact, type UserDenial, type Tool } from "../kernel/index.js";
import { createResourceTools, offersResources, READ_RESOURCE_RULE_NAME, toolPrefix, type ResourceSource } from "../mcp/index.js";
import { estimateCost } from "./cost.js";
import { projectFileReader } from "./file-mentions.js";
import { createMentions, type Mentions } from "./mentions.js";
import { mapClaudeRules } from "./claude-rules.js";
import { bypassRefusal, permissionModeInstructions, permissionModeRules } from "./permission-mode.js";
import { promptFlagText, readProjectInstructions, systemPrompt, type PromptChanges } from "./system-prompt.js";
import { createSnapshotFiles, createSpillFiles, createTreeCheckpoints, findSessionToResume, oldStateNotice, openTranscript, pruneSpillFiles, userStateDir, type ProjectState, type SessionMode } from "../session/index.js";
import { createDomainAccess, createLocalTools, findSandbox, homeInProjectNotice, sandboxPlaces, type DomainApprover, type SandboxAvailability } from "../tools/index.js";
import type { CommonOptions, PermissionMode } from "./program.js";
import { addAllowRule, ConfigError, gitSurfaceReader, loadPromptLimits, loadRules, loadSandboxSettings, loadToolSearch, PROJECT_SETTINGS, projectFileRead, readProtectedFolders, readUserSettings, userConfigDir, userSettingsFile, type SandboxSettings } from "../config/index.js";
import type { SettledTrust } from "./trust.js";

/** What a mode gives the agent when it makes one: how to ask for approval and where events go. */
export interface SessionIo {
  readonly approve: (request: ApprovalRequest) => Promise<ApprovalAnswer | NobodyToAsk | UserDenial>;
  readonly emit: (event: AgentEvent) => void;
}

export type AgentFactory = (io: SessionIo) => Agent;

export interface SessionSetupDeps {
  readonly projectDir: string;
  /** The folder outside the project where this session's transcript, snapshots and checkpoints go. */
  readonly state: ProjectState;
  readonly env: Readonly<Record<string, string | undefined>>;
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
  /** Tools mounted from MCP servers, next to the local ones. */
  readonly remoteTools: readonly Tool[];
  /**
   * The mounted servers' connections: the resources of those that declare them are offered through two
   * local tools (list_mcp_resources, read_mcp_resource) and attached by `@alias:uri` in a prompt.
   */
  readonly resourceSources?: readonly ResourceSource[];
  /** Every server of the config, mounted or not: a rule naming a tool of one that did not come up is no typo. */
  readonly serverAliases: readonly string[];
  /** Applied to every tool result before it is cut to the budget, and so before the model or the transcript sees it. */
  readonly redact: Redact;
  /** A stand-in tool for a name of an MCP server that never came up, so its call names the reason. */
  readonly findTool?: (name: string) => Tool | undefined;
  /** A mounted server's instructions for the model, by alias: shown beside its tools' names when they are deferred. */
  readonly serverInstructions?: (alias: string) => string | undefined;
  readonly warn: (text: string) => void;
  /** Whether to tell that the offline mock answers: not for `mca tools` / `mca call`, which never ask the model. */
  readonly announceModel: boolean;
}

export interface SessionSetup {
  readonly makeAgent: AgentFactory;
  /** The session's model, which also answers MCP servers' sampling requests the user consents to. */
  readonly model: Model;
  /** One line for the chat's first screen: model, tools, project. */
  readonly banner: string;
  /** `/model <name>`: the Claude model for the next turn; an Error when the offline model answers. */
  readonly switchModel: (name: string) => Promise<string | Error>;
  /** `@alias:uri` in the user's prompts, when a mounted server declares resources. */
  readonly mentions?: Mentions;
  /** Why no prompt can be answered (pipe mode without a key): the first prompt ends the run with it. */
  readonly promptsRefused?: string;
}

export async function setUpSession(deps: SessionSetupDeps): Promise<SessionSetup | Error> {
  const { projectDir, options } = deps;
  const home = deps.env.HOME ?? homedir();
  const projectSettings = { read: projectFileRead(deps.project.files, PROJECT_SETTINGS), trusted: deps.project.trusted };
  const userSettings = readUserSettings(userSettingsFile(deps.env));
  const ownRules = loadRules(userSettings, projectSettings, options);
  if (ownRules instanceof Error) return ownRules;
  // Claude Code's --allowedTools / --disallowedTools, as mca's rules; a tool mca has not is said once and left out.
  const claudeRules = mapClaudeRules(options.allowedTools, options.disallowedTools);
  if (claudeRules instanceof Error) return claudeRules;
  for (const line of claudeRules.warnings) deps.warn(line);
  const mode = options.permissionMode ?? "default";
  const prompts = promptChanges(options, mode);
  if (prompts instanceof Error) return prompts;
  const sandboxSettings = loadSandboxSettings(userSettings, projectSettings, { home, projectDir });
  if (sandboxSettings instanceof Error) return sandboxSettings;
  const toolSearch = loadToolSearch(userSettings, projectSettings);
  if (toolSearch instanceof Error) return toolSearch;
  // Found without running anything (start-up pays no process for it); bubblewrap is probed on its first use.
  const availability = sandboxOf(sandboxSettings, options, deps.env);
  const bypassRefused = mode === "bypassPermissions" ? await bypassRefusal(availability) : null;
  if (bypassRefused !== null) return bypassRefused;

  const choice = chooseModel(deps.env, options.model, deps.mode);
  if (choice instanceof Error) return choice;
  if (deps.announceModel && choice.kind === "mock" && choice.notice !== null) deps.warn(choice.notice);
  if (deps.announceModel && (choice.kind === "mock" || choice.kind === "scripted") && options.model !== undefined) {
    deps.warn(`--model ${JSON.stringify(options.model)} has no effect: the ${choice.kind === "mock" ? "offline mock" : "scripted"} model answers`);
  }
  const chosen = await createChosenModel(choice).catch(
    (error: unknown) => new Error(`cannot set up the model: ${describeError(error)}`),
  );
  if (chosen instanceof Error) return chosen;
  // The agent holds this one model; `/model` changes what it delegates to, from the next request on.
  let current: Model = chosen;
  const model: Model = {
    get name() {
      return current.name;
    },
    complete: (request) => current.complete(request),
    // `/context` asks the model answering now; a Claude model can count, the offline ones cannot.
    ...(chosen.countTokens === undefined ? {} : { countTokens: (request: TokenCountRequest) => current.countTokens?.(request) ?? Promise.reject(new Error(`${current.name} cannot count tokens`)) }),
  };
  const switchModel = async (name: string): Promise<string | Error> => {
    if (choice.kind !== "anthropic") return new Error(`the ${choice.kind === "mock" ? "offline mock" : "scripted"} model answers here: set ANTHROPIC_API_KEY to choose a Claude model`);
    const next = await createChosenModel({ ...choice, model: name }).catch((error: unknown) => new Error(describeError(error)));
    if (next instanceof Error) return next;
    current = next;
    return next.name;
  };

  try {
    const notice = oldStateNotice(deps.state);
    if (notice !== null) deps.warn(`mca: ${notice}`);
  } catch {
    // The notice is a courtesy: a state folder that cannot be written fails below, with its reason.
  }
  const resumed = options.resume ? findSessionToResume(deps.state, options.resumeId, options.continueNewest === true) : null;
  // `--resume` takes an id, as Claude Code's does; a prompt taken for one is the likely mistake.
  if (resumed instanceof Error) return new Error(`${resumed.message}; a prompt goes after the id (mca -p --resume <id> "<prompt>"), and -c goes on with the newest session`);
  if (options.resume && resumed === null) deps.warn("no earlier chat session in this project: starting a new one (`mca sessions` lists them all)");
  const history = resumed?.messages ?? null;
  if (availability.kind !== "seatbelt" && availability.notice !== null) deps.warn(availability.notice);
  const homeNotice = availability.kind === "none" ? null : homeInProjectNotice(projectDir, home);
  if (homeNotice !== null) deps.warn(homeNotice);
  // The tokens of MCP logins (mcp-login.ts's loginsFolder) are mca's credentials: no command reads them.
  // What mca or git obeys later stays read-only, present or not (sandbox-places.ts); a trusted project's
  // server programs among it, as mca runs them outside the sandbox.
  const hidden = [join(userConfigDir(deps.env), "oauth")];
  const programs = deps.project.trusted ? (deps.project.files?.programs ?? []) : [];
  // One reading of git's places for the sandbox and the gate, asked of git at the first call that needs it
  // (start-up runs no git) and again when git's files change.
  const git = gitSurfaceReader(projectDir, { env: deps.env });
  const places = sandboxPlaces({ projectDir, env: deps.env, ownFolders: [userConfigDir(deps.env), userStateDir(deps.env, home)], programs, git });
  // Without the network, a sandboxed command's HTTP(S) goes through mca's proxy, domain by domain: by the
  // user's network(…) rules, or asked while it runs through the approver of the mode the agent is made for.
  let domainApprover: DomainApprover | undefined;
  const domainRules = [...ownRules, ...claudeRules.rules];
  // "Always" keeps the domain's rule in the user's own settings file, never a project's.
  const keepRule = async (rule: string): Promise<void> => {
    const file = userSettingsFile(deps.env);
    const added = await addAllowRule(file, rule);
    if (added instanceof ConfigError) deps.warn(`mca: ${rule} is allowed for this session only: it could not be added to your settings (${added.message})`);
  };
  const domains = createDomainAccess({ rules: () => domainRules, approver: () => domainApprover, keepRule });
  const sandbox = { availability, network: sandboxSettings.network, writable: sandboxSettings.writable, hidden, places, domains };
  const resourceSources = deps.resourceSources ?? [];
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
    deps.warn(`mca: rule ${JSON.stringify(rule.pattern.text)} (${rule.verdict}) from ${rule.origin} names no tool; check its spelling (\`mca tools\` lists them)`);
  }
  // Sessions never share snapshots; a resumed one goes on in the folder of the one it resumed, so /undo reaches back.
  const snapshotFolder = resumed?.snapshots ?? deps.sessionId;
  const snapshots = createSnapshotFiles(deps.state, { folder: snapshotFolder, checkpoints: createTreeCheckpoints(deps.state, snapshotFolder, deps.env) });
  let transcript;
  try {
    transcript = openTranscript(deps.state, deps.sessionId, { mode: deps.mode, startedAt: deps.startedAt, snapshots: snapshotFolder }, deps.redact);
  } catch (error) {
    return new Error(`cannot open the session transcript in ${deps.state.dir}: ${describeError(error)}`);
  }
  const system = systemPrompt(projectDir, readProjectInstructions(projectDir), prompts);

  const makeAgent: AgentFactory = (io) => {
    domainApprover = io.approve;
    const budget = promptBudget(maxBudgetUsd);
    const emit = redactEvents(io.emit, deps.redact);
    return createAgent({
      model,
      tools,
      rules,
      protectedFolders,
      system,
      approve: io.approve,
      snapshots,
      transcript,
      // What a mode prints, the model's streamed words included, is redacted on the way to it.
      emit: (event) => {
        budget.observe(event);
        if (event.type === "tool_end" && writeTools.has(event.tool) && !event.isError) git.invalidate();
        emit(event);
      },
      ...(maxTurns === undefined ? {} : { limits: { maxTurnsPerPrompt: maxTurns } }),
      ...(budget.overBudget === undefined ? {} : { overBudget: budget.overBudget }),
      redact: deps.redact,
      ...(history === null ? {} : { history }),
      ...(deps.findTool === undefined ? {} : { findTool: deps.findTool }),
      toolSearch,
      ...(deps.serverInstructions === undefined ? {} : { serverInstructions: deps.serverInstructions }),
      loadedTools: resumed?.loadedTools ?? [],
      spill,
      otherSessionAllows: domains.sessionAllows,
    });
  };
  const banner = [`mca · model ${model.name} · ${tools.length} tools · ${projectDir} · session ${deps.sessionId}`];
  // The conversation itself is shown by the chat (resumed-view.ts); -p and pipe mode show none of it.
  if (resumed !== null) banner.push(`resumed session ${resumed.id} (${resumed.messages.length} messages)`);
  // `@path` of a project file is read by the session's own read_file, and a deny rule on it refuses the mention.
  const readFileTool = tools.find((tool) => tool.name === "read_file" && tool.source === "local");
  const fileReader =
    readFileTool === undefined
      ? undefined
      : projectFileReader(projectDir, readFileTool, (path) => {
          const decision = judgeCall(readFileTool, { path }, rules, new Map(), protectedFolders()).decision;
          return decision.verdict === "deny" ? `refused: ${decision.reason}` : undefined;
        });
  const mentions = createMentions(resourceSources, fileReader);
  // Listed once now, in the background, for Tab after `@alias:` in the chat.
  if (deps.mode === "chat") mentions.refresh();
  const refused = choice.kind === "none" ? { promptsRefused: choice.why } : {};
  return { makeAgent, model, banner: banner.join("\n"), switchModel, mentions, ...refused };
}

// Which model a run talks to. The model modules are imported only once chosen, so the mock path never
// loads the Anthropic SDK.

export type ModelChoice =
  | { readonly kind: "mock"; readonly notice: string | null }
  /** Pipe mode without a key: its slash commands run, and its first prompt ends the run naming the key. */
  | { readonly kind: "none"; readonly why: string }
  | { readonly kind: "scripted"; readonly file: string }
  | { readonly kind: "anthropic"; readonly apiKey: string; readonly baseURL: string | undefined; readonly model: string | undefined };

export const NO_KEY_NOTICE = "No ANTHROPIC_API_KEY set: using the offline mock model (MOCK=1 to silence this)";

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

/** Without a terminal nobody reads a notice: a run meant for Claude that gets the mock would "pass" in CI. */
export const NO_KEY_HEADLESS_ERROR = "ANTHROPIC_API_KEY is not set: -p and pipe mode talk to Claude with it (MOCK=1 runs the offline mock model instead)";

/** Modes whose answers go to a script rather than a person: no key there is an error, not the mock. */
const HEADLESS_MODES: ReadonlySet<SessionMode> = new Set(["print", "pipe"]);

/**
 * `MCA_MOCK_SCRIPT` → scripted turns; `MOCK=1` → mock; no key → mock with a notice in the chat (and where no
 * model is asked: `mca tools`, `mca call`), an Error in -p and pipe mode; else Claude.
 */
export function chooseModel(env: Readonly<Record<string, string | undefined>>, modelFlag: string | undefined, mode: SessionMode): ModelChoice | Error {
  const script = nonEmpty(env.MCA_MOCK_SCRIPT);
  if (script !== undefined) return { kind: "scripted", file: script };
  if (isSet(env.MOCK)) return { kind: "mock", notice: null };
  const apiKey = nonEmpty(env.ANTHROPIC_API_KEY);
  if (apiKey === undefined) {
    if (mode === "pipe") return { kind: "none", why: NO_KEY_HEADLESS_ERROR };
    return HEADLESS_MODES.has(mode) ? new Error(NO_KEY_HEADLESS_ERROR) : { kind: "mock", notice: NO_KEY_NOTICE };
  }
  return {
    kind: "anthropic",
    apiKey,
    baseURL: nonEmpty(env.ANTHROPIC_BASE_URL),
    model: modelFlag ?? nonEmpty(env.MCA_MODEL),
  };
}

async function createChosenModel(choice: ModelChoice): Promise<Model> {
  switch (choice.kind) {
    case "mock": {
      const { createMockModel } = await import("../model/mock-model.js");
      return createMockModel();
    }
    case "none":
      return {
        name: "none",
        complete: async () => {
          throw new Error(choice.why);
        },
      };
    case "scripted": {
      const { createScriptedModel } = await import("../model/scripted-model.js");
      return createScriptedModel(choice.file);
    }
    case "anthropic": {
      const { createAnthropicModel, DEFAULT_MODEL } = await import("../model/anthropic-model.js");
      return createAnthropicModel({
        apiKey: choice.apiKey,
        ...(choice.baseURL === undefined ? {} : { baseURL: choice.baseURL }),
        model: choice.model ?? DEFAULT_MODEL,
      });
    }
    default: {
      const unknown: never = choice;
      throw new Error(`unknown model choice ${JSON.stringify(unknown)}`);
    }
  }
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === "" ? undefined : value;
}

/** `MOCK=1`, `MOCK=true`: set; empty, `0` or `false`: not set. */
function isSet(value: string | undefined): boolean {
  return value !== undefined && value !== "" && value !== "0" && value.toLowerCase() !== "false";
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
