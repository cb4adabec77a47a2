import type { App } from '../route-context.js';
import { accountName, userById } from '../oauth/registry.js';

/** `GET /v1/users/me`: the token's user and the account it acts for (where SC-Account-Id comes from). */
export function userRoutes(app: App): void {
  app.get('/v1/users/me', (c) => {
    const user = userById(c.get('user'));
    return c.json({
      id: user.id,
      username: user.username,
      first_name: user.first_name,
      last_name: user.last_name,
      email: user.email,
      phone: user.phone,
      current_account: { id: user.account, name: accountName(user.account) },
    });
  });
}
