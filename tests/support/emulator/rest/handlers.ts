import { checkHandlers } from './checks.js'
import { commentHandlers } from './comments.js'
import { contentHandlers } from './contents.js'
import type { RestHandler } from './context.js'
import { gitDataHandlers } from './git-data.js'
import { issueHandlers } from './issues.js'
import { labelHandlers } from './labels.js'
import { pullHandlers } from './pulls.js'
import { relationHandlers } from './relations.js'
import { repositoryHandlers } from './repository.js'

/** Every REST operation the emulator serves, keyed by the operationId of GitHub's OpenAPI description. */
export const restHandlers: Readonly<Record<string, RestHandler>> = {
  ...repositoryHandlers,
  ...issueHandlers,
  ...relationHandlers,
  ...labelHandlers,
  ...commentHandlers,
  ...pullHandlers,
  ...checkHandlers,
  ...gitDataHandlers,
  ...contentHandlers,
}
