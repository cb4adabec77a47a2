/**
 * A JSON response with its body rewritten: parsed, given to `rewrite` (which returns the text
 * to send), and sent on with the same status and headers (a stale `content-length` dropped).
 * A body that does not parse goes on as it is. The sandbox's edge (its service variants, its
 * big ids) and the OAuth client's answer filter share it.
 */
export async function rewriteJson(response: Response, rewrite: (body: unknown) => string, parse: (text: string) => unknown = JSON.parse): Promise<Response> {
  const text = await response.text();
  let body: unknown;
  try {
    body = parse(text);
  } catch {
    // Not JSON after all (a body cut short): as it is.
    return new Response(text, response);
  }
  const headers = new Headers(response.headers);
  headers.delete('content-length');
  return new Response(rewrite(body), { status: response.status, statusText: response.statusText, headers });
}
