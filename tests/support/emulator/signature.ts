import type { Signature } from './git/git-store.js'
import type { UserRecord } from './store/records.js'
import { isoSeconds } from './time.js'

/** The git identity GitHub writes for an account: its login and its noreply address. */
export function accountSignature(user: UserRecord, date: Date = new Date()): Signature {
  return { name: user.login, email: `${user.id}+${user.login}@users.noreply.github.com`, date: isoSeconds(date) }
}
