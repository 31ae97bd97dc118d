/** A mistake in how the CLI was called: reported with a pointer to --help, exit code 2. */
export class UsageError extends Error {
  override name = 'UsageError'
}
