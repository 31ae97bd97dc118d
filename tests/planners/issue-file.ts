import { fileURLToPath } from 'node:url'
import { readIssueFile } from '../../src/cli/issue-file.js'
import type { IssueDocument } from '../../src/planners/index.js'

/** An issue of `examples/issues/` (or `demo` for the demo's issue), read as the CLI reads it. */
export function exampleIssue(name: string): Promise<IssueDocument> {
  const path = name === 'demo' ? '../../examples/demo/issue.md' : `../../examples/issues/${name}`
  return readIssueFile(fileURLToPath(new URL(path, import.meta.url)))
}
