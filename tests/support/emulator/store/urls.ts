import type { RepositoryRecord } from './records.js'

/** The URLs GitHub puts in its answers, for the emulator's address (API) and a github.com-like web address. */
export class Urls {
  constructor(
    readonly apiBase: string,
    readonly htmlBase: string,
    private readonly repository: RepositoryRecord,
  ) {}

  /** The URLs of another repository (a fork) at the same addresses. */
  forRepository(repository: RepositoryRecord): Urls {
    return new Urls(this.apiBase, this.htmlBase, repository)
  }

  /** `<api>/repos/{owner}/{repo}<suffix>` */
  repoApi(suffix = ''): string {
    return `${this.apiBase}/repos/${this.repository.owner}/${this.repository.name}${suffix}`
  }

  /** `<web>/{owner}/{repo}<suffix>` */
  repoHtml(suffix = ''): string {
    return `${this.htmlBase}/${this.repository.owner}/${this.repository.name}${suffix}`
  }

  /** `<api>/repositories/{id}<suffix>`: the form GitHub uses in pagination links. */
  repositoryById(suffix = ''): string {
    return `${this.apiBase}/repositories/${this.repository.id}${suffix}`
  }

  /** Where GitHub serves a file's raw bytes. */
  rawFile(ref: string, encodedPath: string): string {
    return `https://raw.githubusercontent.com/${this.repository.owner}/${this.repository.name}/${ref}/${encodedPath}`
  }

  userApi(login: string, suffix = ''): string {
    return `${this.apiBase}/users/${encodeURIComponent(login)}${suffix}`
  }

  userHtml(login: string): string {
    return `${this.htmlBase}/${encodeURIComponent(login)}`
  }
}

/** A GraphQL-style global node id. */
export function nodeId(type: string, id: number | string): string {
  return Buffer.from(`${type}:${id}`).toString('base64').replace(/=+$/, '')
}
