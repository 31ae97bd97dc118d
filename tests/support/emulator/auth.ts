/** The installation token every emulator accepts; it acts as `github-actions[bot]`, like a workflow's GITHUB_TOKEN. */
export const DEFAULT_TOKEN = 'ghs_emulatorInstallationToken0000000000'

export const DEFAULT_ACTOR = 'github-actions[bot]'

/** GitHub's id of the github-actions[bot] account. */
export const DEFAULT_ACTOR_ID = 41898282

/**
 * Maps tokens to actors. `Authorization: token X` and `Authorization: Bearer X` are accepted; a token that was
 * not registered acts as the default actor. A request without a token gets 401.
 */
export class Tokens {
  private readonly actors = new Map<string, string>()

  register(token: string, login: string): void {
    this.actors.set(token, login)
  }

  /** The login acting for an Authorization header, or undefined when the header carries no token. */
  actorFor(authorization: string | undefined): string | undefined {
    const token = /^(?:token|bearer)\s+(\S+)\s*$/i.exec(authorization ?? '')?.[1]
    if (token === undefined) return undefined
    return this.actors.get(token) ?? DEFAULT_ACTOR
  }
}
