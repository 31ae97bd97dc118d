/**
 * The `returns` rule: an async function never returns a promise, un-awaited, from a `try` block (or from a `catch`
 * block with a `finally`). The returned promise has no handler until the function settles: its rejection skips the
 * `catch`, and while a `finally` awaits it is unhandled, which ends a Node process. A cancelled job signals the whole
 * process group, so any git under way may fail at that moment (`contentKey` did, in the kill-and-resume suite).
 * `return await` (or the value kept in a variable and returned after the `try`) is the fix.
 */
import ts from 'typescript'

/** `path:line: the return statement` for each such return in `sourceFiles` of `program`. */
export function unawaitedTryReturns(program: ts.Program, sourceFiles: readonly ts.SourceFile[]): string[] {
  const checker = program.getTypeChecker()
  const found: string[] = []
  const isThenable = (type: ts.Type): boolean => (type.isUnion() ? type.types.some(isThenable) : type.getProperty('then') !== undefined)
  for (const file of sourceFiles) {
    /** `guarded`: in a try block, or a catch block with a finally, of the function around; `inAsync`: that function is async. */
    const visit = (node: ts.Node, guarded: boolean, inAsync: boolean): void => {
      if (ts.isFunctionLike(node)) {
        const isAsync = ts.canHaveModifiers(node) && (ts.getModifiers(node) ?? []).some((m) => m.kind === ts.SyntaxKind.AsyncKeyword)
        ts.forEachChild(node, (child) => visit(child, false, isAsync))
      } else if (ts.isTryStatement(node)) {
        visit(node.tryBlock, true, inAsync)
        if (node.catchClause) visit(node.catchClause, guarded || node.finallyBlock !== undefined, inAsync)
        if (node.finallyBlock) visit(node.finallyBlock, guarded, inAsync)
      } else {
        if (ts.isReturnStatement(node) && node.expression && guarded && inAsync && !ts.isAwaitExpression(node.expression) && isThenable(checker.getTypeAtLocation(node.expression))) {
          const { line } = file.getLineAndCharacterOfPosition(node.getStart(file))
          found.push(`${file.fileName}:${line + 1}: ${node.getText(file).replace(/\s+/g, ' ').slice(0, 100)}`)
        }
        ts.forEachChild(node, (child) => visit(child, guarded, inAsync))
      }
    }
    visit(file, false, false)
  }
  return found
}
