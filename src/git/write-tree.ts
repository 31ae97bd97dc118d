/** Builds a tree from a base tree plus file changes, in a temporary index so no working tree or index is touched. */
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { runGit } from './git.js'

const REGULAR_FILE_MODE = '100644'

/**
 * Writes each text file of `files` as a blob, removes the paths mapped to null, and returns the resulting tree.
 * `base` is the full oid of a commit or tree to start from, or null to start from an empty tree. Paths must be
 * valid tree paths.
 */
export async function writeTree(
  cwd: string,
  base: string | null,
  files: Readonly<Record<string, string | null>>,
): Promise<string> {
  const scratch = await mkdtemp(join(tmpdir(), 'converge-tree-'))
  const env = { GIT_INDEX_FILE: join(scratch, 'index') }
  try {
    const blobs = await writeBlobs(cwd, scratch, files)
    if (base !== null) await runGit(['read-tree', base], { cwd, env })
    // Mode 0 with an all-zero oid (as long as the repository's oids, so base's length) removes a path; only a
    // base tree has paths to remove.
    const removal = base === null ? null : `0 ${'0'.repeat(base.length)}`
    const records: string[] = []
    for (const [path, content] of Object.entries(files)) {
      if (content !== null) records.push(`${REGULAR_FILE_MODE} ${blobs.get(path)}\t${path}\0`)
      else if (removal !== null) records.push(`${removal}\t${path}\0`)
    }
    await runGit(['update-index', '-z', '--index-info'], { cwd, env, input: records.join('') })
    const { stdout } = await runGit(['write-tree'], { cwd, env })
    return stdout.trim()
  } finally {
    await rm(scratch, { recursive: true, force: true })
  }
}

/** Writes the text files of `files` as blobs in one `git hash-object` call; returns each path's blob oid. */
async function writeBlobs(
  cwd: string,
  scratch: string,
  files: Readonly<Record<string, string | null>>,
): Promise<Map<string, string>> {
  const paths = Object.keys(files).filter((path) => files[path] !== null)
  if (paths.length === 0) return new Map()
  // hash-object reads many files from disk in one process; from stdin it would take one process per file.
  const scratchFiles = await Promise.all(
    paths.map(async (path, i) => {
      const file = join(scratch, `blob-${i}`)
      await writeFile(file, files[path] as string, 'utf8')
      return file
    }),
  )
  const { stdout } = await runGit(['hash-object', '-w', '--no-filters', '--stdin-paths'], {
    cwd,
    input: scratchFiles.map((file) => `${file}\n`).join(''),
  })
  const oids = stdout.trim().split('\n')
  return new Map(paths.map((path, i) => [path, oids[i] as string]))
}
