/**
 * The default port of `merch login --web`'s callback: the seeded sandbox app registers
 * http://127.0.0.1:8719/callback, and the README tells real apps to register the same.
 */
export const DEFAULT_CALLBACK_PORT = 8719;
