/** Writes schemas/*.json from the zod model. `--check` exits 1 when a committed file is stale. */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { jsonSchemas } from '../src/model/json-schema.js'

const dir = join(import.meta.dirname, '..', 'schemas')
const check = process.argv.includes('--check')
mkdirSync(dir, { recursive: true })
let stale = 0
for (const [file, schema] of Object.entries(jsonSchemas())) {
  const path = join(dir, file)
  const text = `${JSON.stringify(schema, null, 2)}\n`
  let current = ''
  try { current = readFileSync(path, 'utf8') } catch { /* missing: stale */ }
  if (current === text) continue
  if (check) { console.error(`schemas/${file} is stale: run npm run schemas`); stale++ }
  else { writeFileSync(path, text); console.log(`wrote schemas/${file}`) }
}
process.exit(stale ? 1 : 0)
