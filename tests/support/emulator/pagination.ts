import type { Reply } from './http.js'

const DEFAULT_PER_PAGE = 30
const MAX_PER_PAGE = 100

/**
 * One page of `items` as GitHub serves it: `page` and `per_page` (default 30, at most 100) from the query,
 * and a `Link` header with rel="prev", "next", "last", "first" in GitHub's order, omitted for a single page.
 * `linkBase` is the absolute URL the links point to (GitHub uses `/repositories/{id}/...`).
 */
export function pagedReply<T>(items: readonly T[], query: URLSearchParams, linkBase: string): Reply {
  const perPage = clamp(Number(query.get('per_page') ?? DEFAULT_PER_PAGE) || DEFAULT_PER_PAGE, 1, MAX_PER_PAGE)
  const page = Math.max(1, Math.floor(Number(query.get('page') ?? 1)) || 1)
  const lastPage = Math.max(1, Math.ceil(items.length / perPage))
  const body = items.slice((page - 1) * perPage, page * perPage)
  const links: string[] = []
  const link = (target: number, rel: string) => links.push(`<${pageUrl(linkBase, query, target)}>; rel="${rel}"`)
  if (page > 1) link(Math.min(page - 1, lastPage), 'prev')
  if (page < lastPage) {
    link(page + 1, 'next')
    link(lastPage, 'last')
  }
  if (page > 1) link(1, 'first')
  return { status: 200, body, ...(links.length > 0 ? { headers: { link: links.join(', ') } } : {}) }
}

function pageUrl(linkBase: string, query: URLSearchParams, page: number): string {
  const params = new URLSearchParams(query)
  params.delete('page')
  params.append('page', String(page))
  return `${linkBase}?${params.toString()}`
}

function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, Math.floor(value)))
}
