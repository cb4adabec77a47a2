import { describe, expect, it } from 'vitest';
import { parseRoutes, RouteError } from '../../src/webhooks/forward-routes.js';

describe('parseRoutes', () => {
  it('sends a plain URL every event and an EVENT=URL route only its event', () => {
    const routes = parseRoutes(['http://127.0.0.1:3000/all', 'order.changed=http://127.0.0.1:4000/orders']);
    expect(routes.targetsFor('order.changed')).toEqual(['http://127.0.0.1:3000/all', 'http://127.0.0.1:4000/orders']);
    expect(routes.targetsFor('shipping_order.changed')).toEqual(['http://127.0.0.1:3000/all']);
    expect(routes.targets).toEqual(['http://127.0.0.1:3000/all', 'http://127.0.0.1:4000/orders']);
  });

  it('keeps a plain URL whose query string holds "=" as a plain URL, query intact', () => {
    const routes = parseRoutes(['http://127.0.0.1:3000/hook?key=a=b&x=1']);
    expect(routes.targetsFor('order.created')).toEqual(['http://127.0.0.1:3000/hook?key=a=b&x=1']);
  });

  it('lists a target named twice for an event once', () => {
    const routes = parseRoutes(['http://h:1/', 'order.created=http://h:1/', 'order.created=http://h:1/']);
    expect(routes.targetsFor('order.created')).toEqual(['http://h:1/']);
  });

  it('forwards an unknown event kind only to the plain URLs', () => {
    const routes = parseRoutes(['http://h:1/a', 'order.created=http://h:1/b']);
    expect(routes.targetsFor('order.deleted')).toEqual(['http://h:1/a']);
  });

  it('refuses an unknown event, a value that is not a URL, and a non-HTTP URL', () => {
    expect(() => parseRoutes(['order.deleted=http://h:1/'])).toThrow(/unknown event "order.deleted"/);
    expect(() => parseRoutes(['localhost:3000'])).toThrow(RouteError);
    expect(() => parseRoutes(['order.created=nope'])).toThrow(/not a URL/);
    expect(() => parseRoutes(['ftp://h/'])).toThrow(/only http and https/);
  });
});
