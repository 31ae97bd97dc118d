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
    return this.actorForToken(token)
  }

  /** The login acting for a token: its registered login, or the default actor. */
  actorForToken(token: string): string {
    return this.actors.get(token) ?? DEFAULT_ACTOR
  }
}

/**
 * The token of an `Authorization: Basic` header as git sends it to GitHub: the password is the token (the username
 * is anything, typically `x-access-token`); a token as the username with an empty password (or `x-oauth-basic`)
 * works too. `undefined` when there is no header, `null` when it is not Basic credentials carrying a token.
 */
export function basicAuthToken(authorization: string | undefined): string | undefined | null {
  if (authorization === undefined) return undefined
  const encoded = /^basic\s+([A-Za-z0-9+/=_-]+)\s*$/i.exec(authorization)?.[1]
  if (encoded === undefined) return null
  const decoded = Buffer.from(encoded, 'base64').toString('utf8')
  const colon = decoded.indexOf(':')
  if (colon === -1) return null
  const username = decoded.slice(0, colon)
  const password = decoded.slice(colon + 1)
  if (password !== '' && password !== 'x-oauth-basic') return /\s/.test(password) ? null : password
  return username === '' || username === 'x-access-token' || /\s/.test(username) ? null : username
}
