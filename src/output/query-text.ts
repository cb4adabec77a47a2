// `--query` as people write it (issue 42.2). The AWS CLI and the JMESPath tutorials write a
// string literal with its quotes elided: [?status==`paid`], where JMESPath's grammar wants
// JSON between the backticks (`"paid"`) or a raw string ('paid'). jmespath.py (the AWS CLI's)
// still accepts the elided form, as deprecated; @jmespath-community/jmespath refuses it. So
// a backtick literal that is not JSON is read as that text, a JSON string; one that is JSON
// (`1`, `true`, `"paid"`, `[1, 2]`) is left as it is. And a syntax error names where it is.

type JmesPath = typeof import('@jmespath-community/jmespath');

/** `expression` with each backtick literal that is not JSON written as a JSON string literal. */
export function withElidedQuotes(expression: string): string {
  let out = '';
  for (let i = 0; i < expression.length; i++) {
    const c = expression[i]!;
    if (c === "'" || c === '"') {
      // A raw string or a quoted identifier: copied as it is, escapes and all.
      let j = i + 1;
      while (j < expression.length && expression[j] !== c) j += expression[j] === '\\' ? 2 : 1;
      out += expression.slice(i, j + 1);
      i = j;
    } else if (c === '`') {
      let j = i + 1;
      while (j < expression.length && expression[j] !== '`') j += expression[j] === '\\' ? 2 : 1;
      if (j >= expression.length) return out + expression.slice(i); // unclosed: the parser says so
      const text = expression.slice(i + 1, j).replace(/\\`/g, '`');
      out += isJson(text) ? expression.slice(i, j + 1) : `\`${JSON.stringify(text.trim()).replace(/`/g, '\\`')}\``;
      i = j;
    } else out += c;
  }
  return out;
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * Why `expression` (as given, before withElidedQuotes) is not valid JMESPath, in jmespath's
 * words, with the column it fails at (1-based) and the text from there (an error is one
 * line), or undefined when it is valid.
 */
export function queryProblemOf(jmespath: JmesPath, expression: string): string | undefined {
  const error = failure(jmespath, expression);
  if (error === undefined) return undefined;
  const at = failingColumn(jmespath, expression);
  const rest = expression.slice(at);
  return `${error} (at column ${at + 1}${rest === '' ? ', the end' : `: ${JSON.stringify(rest.length > 20 ? `${rest.slice(0, 20)}…` : rest)}`})`;
}

function failure(jmespath: JmesPath, expression: string): string | undefined {
  try {
    jmespath.compile(withElidedQuotes(expression));
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}

/** Where the expression goes wrong: the first prefix that fails other than by ending too soon. */
function failingColumn(jmespath: JmesPath, expression: string): number {
  const endsTooSoon = (message: string) => /EOF|end of/i.test(message);
  for (let length = 1; length <= expression.length; length++) {
    const message = failure(jmespath, expression.slice(0, length));
    if (message !== undefined && !endsTooSoon(message)) {
      // The offending token is the last one of this prefix: point at its start.
      const prefix = expression.slice(0, length);
      try {
        const tokens = jmespath.tokenize(withElidedQuotes(prefix));
        if (tokens.length > 0 && withElidedQuotes(prefix) === prefix) return Math.min(tokens[tokens.length - 1]!.start, length - 1);
      } catch {
        // A lexer error: it is at this prefix's end.
      }
      return length - 1;
    }
  }
  return expression.length;
}
