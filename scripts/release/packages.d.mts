// Types of packages.mjs for the release command's tests (test/build/).
export function writePackages(options: { releaseDir: string; version: string; downloadBase?: string; sourceDateEpoch: number; merchBin?: string }): Promise<string[]>;
