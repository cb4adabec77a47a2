import type { NewCommand } from '../declaration.js';
import { collect } from '../parse.js';

// The arguments and flags of `merch api`, declared once (src/commands/declaration.ts).

export function declareApi(command: NewCommand) {
  return command
    .argument('<method>', 'GET, POST, PUT, PATCH or DELETE')
    .argument('<path>', 'a path on the base URL, e.g. /v1/orders')
    .option('-f, --field <key=value>', 'a query parameter (GET, DELETE) or a body field; true, false, null and numbers are typed (repeatable)', collect)
    .option('-F, --raw-field <key=value>', 'like --field, but the value is always a string (repeatable)', collect)
    .option('--input <file>', 'the JSON request body from a file, or - for standard input')
    .option('--paginate', 'GET every page of a paginated list and print all the records');
}
