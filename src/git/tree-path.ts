/** Paths of files inside a git tree, as the state stores accept them. */

export class InvalidTreePathError extends Error {
  constructor(
    readonly path: string,
    reason: string,
  ) {
    super(`Invalid state file path ${JSON.stringify(path)}: ${reason}`)
    this.name = 'InvalidTreePathError'
  }
}

/**
 * Accepts `a/b/c.json`: relative, `/`-separated, no empty, `.` or `..` segments. Control characters are refused
 * too, since git's line-based plumbing (and every reader of the branch) would be confused by them.
 */
export function assertTreePath(path: string): void {
  const fail = (reason: string): never => {
    throw new InvalidTreePathError(path, reason)
  }
  if (path === '') fail('it is empty')
  if (path.startsWith('/')) fail('it must be relative, not start with "/"')
  if (/[\u0000-\u001f\u007f]/.test(path)) fail('it contains a control character')
  for (const segment of path.split('/')) {
    if (segment === '') fail('it has an empty segment ("//" or a trailing "/")')
    if (segment === '.' || segment === '..') fail(`it has a "${segment}" segment`)
  }
}
