// Types of third-party-notices.mjs for the tests (test/build/).
export function packageDirOf(modulePath: string): string;
