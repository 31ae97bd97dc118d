/**
 * Paths an approver would never expect a task to change unless the plan says so: workflows and actions (run with
 * the repository's secrets once pushed, by a token with the workflow scope), git's own files (`.gitattributes`
 * filters, `.gitmodules` URLs, `.gitignore`) and other CI systems' configuration.
 */
const UNEXPECTED_PATHS = [
  /^\.github\/(?:workflows|actions)\//,
  /(?:^|\/)\.git[^/]*$/,
  // Other CI systems' and hosted build services' configuration, as each reads it from the repository's root (the
  // list docs/security.md gives): what runs there runs with that system's secrets.
  /^(?:\.gitlab-ci\.ya?ml$|\.gitlab\/ci\/|\.travis\.ya?ml$|\.drone\.(?:ya?ml|star|jsonnet)$|\.?azure-pipelines(?:\.ya?ml$|\/)|bitbucket-pipelines\.ya?ml$|Jenkinsfile|\.circleci\/|\.buildkite\/|\.?buildkite\.ya?ml$)/,
  /^(?:\.cirrus\.(?:ya?ml|star)$|\.?appveyor\.ya?ml$|\.woodpecker(?:\.ya?ml$|\/)|\.semaphore\/|cloudbuild\.(?:ya?ml|json)$|buildspec\.ya?ml$|\.(?:gitea|forgejo)\/(?:workflows|actions)\/)/,
  /^(?:codefresh\.ya?ml$|\.codefresh\/|bitrise\.ya?ml$|codemagic\.ya?ml$|\.teamcity\/|bamboo-specs\/|\.tekton\/|\.builds\/|\.build\.ya?ml$|\.?screwdriver\.ya?ml$|wercker\.ya?ml$|\.harness\/)/,
  /^(?:netlify\.toml$|\.gitpod\.ya?ml$|\.devcontainer(?:\.json$|\/)|\.pre-commit-config\.ya?ml$)/,
]

/** Whether a task may change `path` only when its plan names it (the undeclared-file rule of `WorkBranch.commitTask`). */
export function isUnexpectedPath(path: string): boolean {
  return UNEXPECTED_PATHS.some((pattern) => pattern.test(path))
}
