/** The GitHub Action entry point, bundled into `dist/index.js`. */
import { run } from './main.js'

void run()
