import { createHash } from 'node:crypto';

/** PKCE's S256 transform (RFC 7636 4.2): base64url(sha256(code_verifier)), no padding. */
export const s256 = (verifier: string): string => createHash('sha256').update(verifier, 'ascii').digest('base64url');
