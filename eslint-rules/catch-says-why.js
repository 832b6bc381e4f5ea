// @ts-check
/**
 * Every catch says why. A `catch` clause or a `.catch(fn)` handler must either do
 * something (call a logger, reject, clean up: any call), rethrow, use the error (read its code,
 * return it as a result), or carry a comment saying why swallowing it is deliberate (best-effort
 * cleanup). `() => undefined` and `catch {}`
 * with neither lose an error without a word.
 */

/** @param {import('estree').Node} node */
function doesSomething(node) {
  let found = false;
  /** @param {unknown} value */
  const visit = (value) => {
    if (found || !value || typeof value !== 'object') return;
    if (Array.isArray(value)) {
      for (const item of value) visit(item);
      return;
    }
    const child = /** @type {{ type?: string }} */ (value);
    if (typeof child.type !== 'string') return;
    if (
      child.type === 'CallExpression' ||
      child.type === 'NewExpression' ||
      child.type === 'ThrowStatement'
    ) {
      found = true;
      return;
    }
    for (const [key, inner] of Object.entries(child)) {
      if (key === 'parent' || key === 'loc' || key === 'range') continue;
      visit(inner);
    }
  };
  visit(node);
  return found;
}

/** @type {import('eslint').Rule.RuleModule} */
const rule = {
  meta: {
    type: 'suggestion',
    docs: {
      description:
        'A catch clause or .catch() handler must log, rethrow or say in a comment why it swallows the error',
    },
    schema: [],
    messages: {
      silent:
        'This catch swallows the error without a word: log it (with the run/user ids), rethrow, or add a comment saying why it is deliberate.',
    },
  },
  create(context) {
    const source = context.sourceCode;
    const comments = source.getAllComments();
    /**
     * A comment says why when it sits inside `node`, on `line` itself, or ends on the line above.
     * @param {import('estree').Node} node
     * @param {number[]} lines
     */
    const explained = (node, lines) =>
      source.getCommentsInside(node).length > 0 ||
      comments.some(
        (comment) =>
          comment.loc &&
          lines.some(
            (line) =>
              comment.loc && comment.loc.end.line >= line - 1 && comment.loc.start.line <= line,
          ),
      );
    /** @param {import('estree').Node} node the statement a `.catch()` sits in */
    const statementOf = (node) => {
      /** @type {import('eslint').Rule.Node | null} */
      let current = /** @type {import('eslint').Rule.Node} */ (node);
      while (current && !/Statement$|Declaration$/.test(current.type)) current = current.parent;
      return current;
    };

    /** @param {import('estree').Node} node a catch clause or handler: is its error read? */
    const usesError = (node) =>
      source.getDeclaredVariables(node).some((variable) => variable.references.length > 0);

    return {
      CatchClause(node) {
        if (doesSomething(node.body) || usesError(node)) return;
        const tryLine = node.parent.loc?.start.line ?? 0;
        if (explained(node.body, [node.loc?.start.line ?? 0, tryLine])) return;
        context.report({ node, messageId: 'silent' });
      },
      CallExpression(node) {
        const callee = node.callee;
        if (callee.type !== 'MemberExpression' || callee.computed) return;
        if (callee.property.type !== 'Identifier' || callee.property.name !== 'catch') return;
        const handler = node.arguments[0];
        // `.catch(log.warn)` or `.catch(reject)`: a named function does something.
        if (
          !handler ||
          (handler.type !== 'ArrowFunctionExpression' && handler.type !== 'FunctionExpression')
        ) {
          return;
        }
        if (doesSomething(handler.body) || usesError(handler)) return;
        const statement = statementOf(node);
        const lines = [callee.property.loc?.start.line ?? 0, statement?.loc?.start.line ?? 0];
        if (explained(handler, lines)) return;
        context.report({ node: handler, messageId: 'silent' });
      },
    };
  },
};

export default rule;
