/**
 * Why an error message is not clear, if it is not: a clear one is a real message (not empty, not
 * `[object Object]`, not a web page) that says what went wrong in terms a user can act on: the HTTP status, a
 * rate limit, a moved branch, a timeout or a dropped connection. Undefined for a clear message.
 */
export function unclearMessage(message: string): string | undefined {
  if (message.trim() === '') return 'empty message'
  if (message.includes('[object Object]')) return `"${message}" contains [object Object]`
  if (/<\/?(html|body|h1|div|p)\b/i.test(message)) return `"${message}" is an HTML page`
  if (!/\b[45]\d\d\b|rate limit|moved|timed out|timeout|connection (reset|closed|dropped|lost)/i.test(message)) {
    return `"${message}" names no HTTP status, rate limit, moved branch, timeout or dropped connection`
  }
  return undefined
}
