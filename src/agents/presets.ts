/**
 * Agent CLIs by name. `executor-command` and `planner-command` take a line of shell, or one of these names, which
 * stands for a template that runs the agent non-interactively on a runner and asks it for machine-readable output
 * (written to `$CONVERGE_AGENT_OUTPUT_FILE`, read by agent-output.ts: its final message, usage, cost, errors).
 *
 * As an executor the agent may edit the checkout (and run commands). As a planner it runs read-only — it plans
 * before anyone approved anything, on text anyone may have written — so it cannot write the plan file: its plan is
 * its final message, which Converge reads from the output (see planFromAgentMessage). `$CONVERGE_MAX_TURNS` is set
 * when the workflow sets `max-turns`; templates pass it to agents that take a turn limit.
 *
 * Every template reads the prompt from a file Converge wrote: issue and plan text never reach a command line.
 */

export const AGENT_NAMES = ['claude-code', 'codex', 'gemini', 'aider'] as const
export type AgentName = (typeof AGENT_NAMES)[number]

/** How an agent reports what it did: the form of `$CONVERGE_AGENT_OUTPUT_FILE`. */
export type AgentOutputFormat = 'claude-json' | 'codex-jsonl' | 'gemini-json' | 'text'

export interface AgentPreset {
  name: AgentName
  /** The npm package (or other distribution) that provides the CLI. */
  install: string
  /** The environment variable holding its API key, to pass through `env:` (executor) and `planner-env` (planner). */
  apiKey: string
  /** What that key is and where it comes from, for a run whose credentials were refused. */
  credentials: string
  /**
   * How `max-turns` (turns: model requests) holds: `flag`, the CLI stops itself at the limit; `counted`, Converge
   * counts the turns in the CLI's output after the run and fails a run that took more; `none`, it cannot be held,
   * and is refused at start.
   */
  turnLimit: 'flag' | 'counted' | 'none'
  executor: string
  planner: string
  output: AgentOutputFormat
  /** How the planner is kept read-only, for the README. */
  readOnly: string
}

const MAX_TURNS = '${CONVERGE_MAX_TURNS:+--max-turns "$CONVERGE_MAX_TURNS"}'

/**
 * The Gemini CLI planner's policy (`--policy`, written next to its output): no tool that writes or runs commands,
 * and no switch into plan mode — headless, leaving plan mode is approved by itself and switches to YOLO.
 */
const GEMINI_READ_ONLY =
  'printf \'[[rule]]\\ntoolName = ["write_file", "replace", "run_shell_command", "enter_plan_mode", "exit_plan_mode"]\\ndecision = "deny"\\npriority = 999\\n\' ' +
  '> "$CONVERGE_AGENT_OUTPUT_FILE.policy.toml"'

export const AGENT_PRESETS: Record<AgentName, AgentPreset> = {
  'claude-code': {
    name: 'claude-code',
    install: 'npm install -g @anthropic-ai/claude-code',
    apiKey: 'ANTHROPIC_API_KEY',
    credentials: 'an Anthropic API key, from a secret in the step\'s `env:`',
    turnLimit: 'flag',
    executor:
      `claude -p --output-format json --permission-mode acceptEdits --allowedTools Bash,Read,Edit,Write ${MAX_TURNS} ` +
      '< "$CONVERGE_PROMPT_FILE" > "$CONVERGE_AGENT_OUTPUT_FILE"',
    planner:
      `claude -p --output-format json --permission-mode plan --disallowedTools Bash,Edit,Write,NotebookEdit ${MAX_TURNS} ` +
      '< "$CONVERGE_PLAN_PROMPT_FILE" > "$CONVERGE_AGENT_OUTPUT_FILE"',
    output: 'claude-json',
    readOnly: '`--permission-mode plan` (reads and searches only), and `--disallowedTools Bash,Edit,Write,NotebookEdit`',
  },
  codex: {
    name: 'codex',
    install: 'npm install -g @openai/codex',
    // `codex exec` sends CODEX_API_KEY (or the login in $CODEX_HOME/auth.json); it does not read OPENAI_API_KEY.
    apiKey: 'CODEX_API_KEY',
    credentials: 'an OpenAI API key, from a secret in the step\'s `env:`; `codex exec` does not read OPENAI_API_KEY',
    // Codex has no turn limit: its `--json` events show each tool call, which Converge counts.
    turnLimit: 'counted',
    executor: 'codex exec --json --skip-git-repo-check --sandbox workspace-write - < "$CONVERGE_PROMPT_FILE" > "$CONVERGE_AGENT_OUTPUT_FILE"',
    planner: 'codex exec --json --skip-git-repo-check --sandbox read-only - < "$CONVERGE_PLAN_PROMPT_FILE" > "$CONVERGE_AGENT_OUTPUT_FILE"',
    output: 'codex-jsonl',
    readOnly: '`--sandbox read-only`: its commands may read, and nothing it runs may write',
  },
  gemini: {
    name: 'gemini',
    install: 'npm install -g @google/gemini-cli',
    apiKey: 'GEMINI_API_KEY',
    credentials: 'a Gemini API key (Google AI Studio), from a secret in the step\'s `env:`',
    // Its own limit, `model.maxSessionTurns`, is a setting only (a settings file of ours is refused in a temp
    // folder others can write); its stream-json shows each tool call, which Converge counts.
    turnLimit: 'counted',
    // Headless, the CLI refuses an untrusted folder (exit 55) and reports errors on stderr in `--output-format json`;
    // `--skip-trust` trusts the checkout, `stream-json` puts the error in its `result` event.
    // `yolo`: like the other executors it may run commands (its tests); headless, `auto_edit` offers it no shell.
    executor: 'gemini --output-format stream-json --skip-trust --approval-mode yolo < "$CONVERGE_PROMPT_FILE" > "$CONVERGE_AGENT_OUTPUT_FILE"',
    planner:
      `${GEMINI_READ_ONLY} && gemini --output-format stream-json --skip-trust --approval-mode default --policy "$CONVERGE_AGENT_OUTPUT_FILE.policy.toml" ` +
      '< "$CONVERGE_PLAN_PROMPT_FILE" > "$CONVERGE_AGENT_OUTPUT_FILE"',
    output: 'gemini-json',
    readOnly:
      '`--approval-mode default` without a terminal (tools that edit or run commands need an approval nobody can give), and a `--policy` ' +
      'that denies `write_file`, `replace`, `run_shell_command` and entering or leaving plan mode (which, headless, would switch to YOLO)',
  },
  aider: {
    name: 'aider',
    install: 'pip install aider-install && aider-install',
    apiKey: 'ANTHROPIC_API_KEY or OPENAI_API_KEY',
    credentials: 'the key of the model aider uses',
    // aider's output is text: no count of its model requests, and no turn limit of its own.
    turnLimit: 'none',
    executor: 'aider --yes-always --no-auto-commits --no-check-update --no-show-model-warnings --message-file "$CONVERGE_PROMPT_FILE"',
    planner: 'aider --chat-mode ask --no-auto-commits --no-check-update --no-show-model-warnings --message-file "$CONVERGE_PLAN_PROMPT_FILE" > "$CONVERGE_AGENT_OUTPUT_FILE"',
    output: 'text',
    readOnly: '`--chat-mode ask`: aider answers and edits no file',
  },
}

export interface AgentCommand {
  /** The line of shell to run. */
  command: string
  /** The preset it came from; absent for the workflow author's own template. */
  preset?: AgentPreset
}

/**
 * The command a `executor-command` / `planner-command` value stands for: a preset's template for its name, the
 * value itself otherwise (`none` and empty stay as they are: no executor).
 */
export function agentCommand(value: string, role: 'executor' | 'planner'): AgentCommand {
  const name = value.trim()
  const preset = (AGENT_PRESETS as Record<string, AgentPreset | undefined>)[name]
  if (preset) return { command: preset[role], preset }
  return { command: name }
}

/**
 * Why `max-turns` cannot be held with this executor or planner command, or undefined: a preset whose CLI neither
 * stops at a limit nor reports its turns. (A workflow's own command gets `$CONVERGE_MAX_TURNS`, and Converge holds
 * the limit when its output reports turns in one of the forms agent-output.ts reads.)
 */
export function maxTurnsRefusal(command: string): string | undefined {
  const preset = agentCommand(command, 'executor').preset
  if (preset?.turnLimit !== 'none') return undefined
  return `max-turns cannot be held with the ${preset.name} preset: ${preset.name} reports no turns and takes no turn limit; remove max-turns (the task timeout bounds each of its runs)`
}
