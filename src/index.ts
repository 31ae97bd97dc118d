/** The GitHub Action entry point, bundled into `dist/index.js`. */
import { isMainThread } from 'node:worker_threads'
import { run } from './main.js'

// A worker thread running this bundle is the board's second thread (src/board/pages-worker.ts), not the action.
if (isMainThread) void run()
else void import('./board/pages-worker.js')
