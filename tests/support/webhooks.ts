import examples from '@octokit/webhooks-examples'

type Example = Record<string, any>

/**
 * A payload from `@octokit/webhooks-examples` (GitHub's recorded webhook examples), deep-copied so a test
 * can adapt it to the test repository.
 */
export function webhookExample(event: string, match: (payload: Example) => boolean = () => true): Example {
  const group = (examples as Array<{ name: string; examples: Example[] }>).find((e) => e.name === event)
  const payload = group?.examples.find(match)
  if (!payload) throw new Error(`no ${event} example matches`)
  return structuredClone(payload)
}
