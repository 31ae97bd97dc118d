/** GitHub's timestamp format: ISO 8601 in UTC without milliseconds (`2024-01-01T00:00:00Z`). */
export function isoSeconds(date: Date = new Date()): string {
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z')
}
