/**
 * The body of an issue the built-in planner plans into two tasks — a handler file, then its route (T2 depends
 * on T1) — with acceptance criteria per task and a verification command. For the epic and dependency tests,
 * where each child must be plannable.
 */
export function routeIssueBody(what: string, name: string, options: { extension?: string; command?: string } = {}): string {
  const { extension = 'ts', command = 'npm test' } = options
  return [
    `${what}.`,
    '',
    '## Tasks',
    `- [ ] Add \`src/${name}.${extension}\` exporting a handler that answers 200`,
    `- [ ] Register the route in \`src/server.${extension}\` (depends on T1)`,
    '',
    '## Acceptance criteria',
    `- T1: GET /${name} answers 200`,
    `- T2: the server routes /${name} to the handler`,
    '',
    '## Verification',
    '```sh',
    command,
    '```',
  ].join('\n')
}
