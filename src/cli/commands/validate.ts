import { readFile } from 'node:fs/promises'
import { analysePlanText } from '../../plan/analyse.js'
import { renderPlanText } from '../../report/plan-text.js'
import type { CliIo } from '../io.js'
import { UsageError } from '../usage-error.js'

/** `converge validate <plan.json>`: exit 0 for a usable plan, 1 with every error and finding otherwise. */
export async function validateCommand(args: { positionals: string[]; json: boolean }, io: CliIo): Promise<number> {
  const [file] = args.positionals
  if (!file) throw new UsageError('validate needs a plan file: converge validate <plan.json>')
  const analysis = analysePlanText(await readFile(file, 'utf8'))
  if (args.json) {
    const { solution: _solution, ...report } = analysis
    io.out(JSON.stringify(report, null, 2))
  } else {
    io.out(`${file}\n${renderPlanText(analysis)}`)
  }
  return analysis.errors.length || analysis.gate === 'fail' ? 1 : 0
}
