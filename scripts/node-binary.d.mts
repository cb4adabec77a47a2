export type Target = 'linux-x64' | 'linux-arm64' | 'darwin-x64' | 'darwin-arm64' | 'win-x64';
export const NODE_RELEASES: Record<22 | 24 | 26, string>;
export const TARGETS: Record<Target, { package: string; binary: string; format: 'elf' | 'macho' | 'pe'; arch: 'x64' | 'arm64' }>;
export const HOST_TARGET: Target;
export const EXECUTABLE_NODE_LINES: Record<Target, 22 | 24 | 26>;
export function nodeRelease(line: number | string, target?: Target): { version: string; dir: string; node: string; licence: string };
