/** A mistake in how the CLI was called: reported with a pointer to --help, exit code 2. */
export class UsageError extends Error {
  override name = 'UsageError'
}

/** What the user gave cannot be used as it is (an empty or binary issue file): reported as it is, exit code 1. */
export class InputError extends Error {
  override name = 'InputError'
}
