import { defineCommand } from '../define-command.js';
import { collect } from '../parse.js';

export const apiCommand = defineCommand({
  name: 'api',
  description: 'make any authenticated request to the service and print the JSON response',
  declare: (command) =>
    command
      .argument('<method>', 'GET, POST, PUT, PATCH or DELETE')
      .argument('<path>', 'a path on the base URL, e.g. /v1/orders')
      .option('-f, --field <key=value>', 'a query parameter (GET, DELETE) or a body field; true, false, null and numbers are typed (repeatable)', collect)
      .option('-F, --raw-field <key=value>', 'like --field, but the value is always a string (repeatable)', collect)
      .option('--input <file>', 'the JSON request body from a file, or - for standard input')
      .option('--paginate', 'GET every page of a paginated list and print all the records'),
  examples: [
    'merch api GET /v1/products --paginate --jsonl',
    'merch api GET /v1/supplier-products -f search=mug -f limit=5',
    'merch api PATCH /v1/payment-methods/pm_E0zzP5GQ5xBjEXyyzwrYlTGu -f is_default=true',
    'merch api POST /v1/orders/ --input order.json',
  ],
  run: async (ctx, options, [method, path]): Promise<void> => (await import('./request.js')).run(method, path, options, { io: ctx.io, format: ctx.format, api: ctx.api }),
});
