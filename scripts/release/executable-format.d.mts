export const SEA_FUSE: string;
export interface ExecutableFacts {
  format: 'elf' | 'pe' | 'macho';
  arch: 'x64' | 'arm64' | undefined;
  /** The application blob's size in bytes, 0 when it is not there. */
  blobSize: number;
  blob: boolean;
  fuse: 'flipped' | 'unflipped' | 'absent';
  signed: boolean;
}
export function inspectExecutable(bytes: Buffer): ExecutableFacts;
export function withoutMachOSignature(bytes: Buffer): Buffer;
export function withoutAuthenticode(bytes: Buffer): Buffer;
