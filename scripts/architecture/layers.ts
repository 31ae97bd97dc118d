/**
 * The layers of `src/`, lowest first: the one list the layer check (`scripts/check-architecture.ts layers`) and
 * `docs/architecture.md` follow. A file may import from its own directory and from the directories of lower
 * layers; never from a higher layer, and never from another directory of its own layer.
 */
export interface Layer {
  name: string
  /** Directories under `src/`; `.` stands for the files directly in `src/`. */
  dirs: readonly string[]
  /** What the layer is for, in one line. */
  role: string
}

export const LAYERS: readonly Layer[] = [
  { name: 'model', dirs: ['model'], role: 'the documents Converge reads and writes (zod schemas, ids, the state branch layout), the `/converge` command vocabulary (model/commands.ts) and secret masking (model/secrets.ts)' },
  { name: 'plan', dirs: ['plan'], role: 'a plan checked, pure: schema errors, the task graph, the quality gate, the plan hash' },
  { name: 'agents', dirs: ['agents'], role: 'agent CLIs as data: the presets, and what an agent reports (its output, usage and cost)' },
  { name: 'report', dirs: ['report'], role: 'every text Converge publishes, rendered from the model, pure: comment, check run, summary, execution.md, annotations' },
  { name: 'queue', dirs: ['queue'], role: 'the repository queue: issues in order of priority and readiness, pure' },
  { name: 'processes', dirs: ['processes', 'git'], role: 'the machine: commands run with a clean environment and a process group, and git' },
  { name: 'planners', dirs: ['planners'], role: 'where plans come from: an explicit block, the built-in planner, a planner command' },
  { name: 'github', dirs: ['github'], role: 'the GitHub API: issues, comments, check runs, pull requests, relations' },
  { name: 'state', dirs: ['state'], role: 'the state branch behind the StateStore seam (GitHub or a local git repository), and its transitions' },
  { name: 'board', dirs: ['board'], role: 'the board: one self-contained HTML page of the state branch (queue, issues, evidence, cost), made from a StateStore snapshot and served or written' },
  { name: 'execute', dirs: ['execute'], role: 'one task\'s develop → validate → debug loop, and the scheduler of tasks' },
  { name: 'pipeline', dirs: ['pipeline'], role: 'the commands\' flows over the state branch: plan, approve, execute, verify, sync, scale-out' },
  { name: 'hosts', dirs: ['action', 'cli'], role: 'the GitHub Action and the CLI, which read their inputs and call the pipeline' },
  { name: 'entry', dirs: ['.'], role: 'the action\'s entry points' },
]
