import { describe, expect, it } from 'vitest';
import { refusesTheToken } from '../../src/api/not-authenticated.js';

// src/api/not-authenticated.ts: the one rule for "the service did not take the token" (a
// refresh, then "not signed in") as against a refusal of permission.

describe('refusesTheToken', () => {
  it.each([
    [401, '{"detail":"Authentication credentials were not provided."}'],
    [401, '{"detail":"Invalid token."}'],
    [401, ''],
    [401, '<html><title>401 Authorization Required</title></html>'],
    // DRF's 401 downgraded to 403 (SessionAuthentication first): its own words, any case
    [403, '{"detail":"Authentication credentials were not provided."}'],
    [403, '{"detail":"authentication credentials were not provided"}'],
    [403, '{"detail":"Incorrect authentication credentials."}'],
    [403, '{"detail":"Invalid token."}'],
    [403, '{"detail":"Invalid token header. No credentials provided."}'],
    [403, '{"detail":"Given token not valid for any token type","code":"token_not_valid","messages":[]}'],
    [403, '{"detail":"Token is invalid or expired"}'],
    [403, '{"detail":"Signature has expired."}'],
    [403, '{"detail":"Something else.","code":"not_authenticated"}'],
    [403, '{"detail":{"message":"Session gone.","code":"authentication_failed"}}'],
    [403, '{"error":"invalid_token","error_description":"The access token has expired."}'],
    [403, 'Invalid token.'],
  ])('%i %s: the token was refused', (status, body) => {
    expect(refusesTheToken(status, body)).toBe(true);
  });

  it.each([
    [403, '{"detail":"You do not have permission to perform this action."}'],
    [403, '{"detail":"The SC-Account-Id header does not match the token\'s account."}'],
    [403, '{"detail":"Not the token you are looking for: invalid token."}'],
    [403, ''],
    [403, '<html><title>403 Forbidden</title></html>'],
    [403, '["Authentication credentials were not provided."]'],
    [404, '{"detail":"Invalid token."}'],
    [400, '{"error":"invalid_token"}'],
    [200, ''],
  ])('%i %s: not a refused token', (status, body) => {
    expect(refusesTheToken(status, body)).toBe(false);
  });

  it('takes the body parsed as well as its text (ApiError.body)', () => {
    expect(refusesTheToken(403, { detail: 'Authentication credentials were not provided.' })).toBe(true);
    expect(refusesTheToken(403, { detail: 'You do not have permission to perform this action.' })).toBe(false);
    expect(refusesTheToken(403, undefined)).toBe(false);
    expect(refusesTheToken(undefined, { detail: 'Invalid token.' })).toBe(false);
  });
});
