// What a single executable is, read from its bytes: the container (ELF, PE, Mach-O), its
// processor, whether Node's application blob is in place and its fuse flipped, and
// whether it carries a code signature. The release checks every executable it builds with
// it (scripts/release.mjs), since only the linux-x64 one can run here; and it removes the
// signatures that injecting the blob breaks (a broken signature is worse than none).
import { unsign } from 'macho-unsign';

export const SEA_FUSE = 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2';

const MACHO_CPU = { 0x01000007: 'x64', 0x0100000c: 'arm64' };
const ELF_MACHINE = { 0x3e: 'x64', 0xb7: 'arm64' };
const PE_MACHINE = { 0x8664: 'x64', 0xaa64: 'arm64' };
const LC_SEGMENT_64 = 0x19;
const LC_CODE_SIGNATURE = 0x1d;
const PE_CERTIFICATE_TABLE = 4;
const PE_RESOURCE_TABLE = 2;
const RT_RCDATA = 10;
const PT_NOTE = 4;
const align4 = (n) => (n + 3) & ~3;

/** The name of a fixed-size, NUL-padded Mach-O name field. */
const nameAt = (bytes, at) => bytes.toString('latin1', at, at + 16).replace(/\0+$/, '');

function machO(bytes) {
  const cpu = MACHO_CPU[bytes.readUInt32LE(4)];
  const commands = bytes.readUInt32LE(16);
  const sections = [];
  let signed = false;
  for (let i = 0, at = 32; i < commands; i += 1) {
    const command = bytes.readUInt32LE(at);
    const size = bytes.readUInt32LE(at + 4);
    if (command === LC_CODE_SIGNATURE) signed = true;
    if (command === LC_SEGMENT_64) {
      const segment = nameAt(bytes, at + 8);
      const count = bytes.readUInt32LE(at + 64);
      for (let s = 0; s < count; s += 1) {
        const section = at + 72 + s * 80;
        sections.push({ segment, name: nameAt(bytes, section), size: Number(bytes.readBigUInt64LE(section + 40)) });
      }
    }
    at += size;
  }
  const blob = sections.find((s) => s.segment === 'NODE_SEA' && s.name === '__NODE_SEA_BLOB');
  return { format: 'macho', arch: cpu, blobSize: blob?.size ?? 0, signed };
}

function pe(bytes) {
  const header = bytes.readUInt32LE(0x3c);
  const arch = PE_MACHINE[bytes.readUInt16LE(header + 4)];
  const optional = header + 24;
  const directory = (index) => ({ rva: bytes.readUInt32LE(optional + 112 + index * 8), size: bytes.readUInt32LE(optional + 112 + index * 8 + 4) });
  const sectionTable = optional + bytes.readUInt16LE(header + 20);
  const sections = Array.from({ length: bytes.readUInt16LE(header + 6) }, (_, i) => {
    const at = sectionTable + i * 40;
    return { rva: bytes.readUInt32LE(at + 12), size: bytes.readUInt32LE(at + 8), offset: bytes.readUInt32LE(at + 20) };
  });
  const fileOffset = (rva) => {
    const section = sections.find((s) => rva >= s.rva && rva < s.rva + s.size);
    return section ? rva - section.rva + section.offset : undefined;
  };
  // postject adds the blob as an RT_RCDATA resource named NODE_SEA_BLOB: type, name and
  // language directories, then the data entry holding its size.
  const resources = fileOffset(directory(PE_RESOURCE_TABLE).rva);
  const entries = function* (at) {
    const count = bytes.readUInt16LE(at + 12) + bytes.readUInt16LE(at + 14);
    for (let i = 0; i < count; i += 1) {
      const name = bytes.readUInt32LE(at + 16 + i * 8);
      const target = bytes.readUInt32LE(at + 20 + i * 8);
      const label = name & 0x80000000 ? bytes.toString('utf16le', resources + (name & 0x7fffffff) + 2, resources + (name & 0x7fffffff) + 2 + bytes.readUInt16LE(resources + (name & 0x7fffffff)) * 2) : name;
      yield { label, at: resources + (target & 0x7fffffff), directory: (target & 0x80000000) !== 0 };
    }
  };
  let blobSize = 0;
  if (resources !== undefined) {
    const rcdata = [...entries(resources)].find((e) => e.label === RT_RCDATA && e.directory);
    const named = rcdata && [...entries(rcdata.at)].find((e) => e.label === 'NODE_SEA_BLOB' && e.directory);
    const language = named && [...entries(named.at)][0];
    if (language && !language.directory) blobSize = bytes.readUInt32LE(language.at + 4);
  }
  return { format: 'pe', arch, blobSize, signed: directory(PE_CERTIFICATE_TABLE).size > 0 };
}

function elf(bytes) {
  const arch = ELF_MACHINE[bytes.readUInt16LE(18)];
  // postject adds the blob as a note named NODE_SEA_BLOB, in a PT_NOTE segment of its own.
  const headers = Number(bytes.readBigUInt64LE(0x20));
  const size = bytes.readUInt16LE(0x36);
  let blobSize = 0;
  for (let i = 0; i < bytes.readUInt16LE(0x38); i += 1) {
    const at = headers + i * size;
    if (bytes.readUInt32LE(at) !== PT_NOTE) continue;
    const start = Number(bytes.readBigUInt64LE(at + 8));
    const end = start + Number(bytes.readBigUInt64LE(at + 32));
    for (let note = start; note + 12 <= end; ) {
      const nameSize = bytes.readUInt32LE(note);
      const descriptionSize = bytes.readUInt32LE(note + 4);
      if (bytes.toString('latin1', note + 12, note + 12 + nameSize) === 'NODE_SEA_BLOB\0') blobSize = descriptionSize;
      note += 12 + align4(nameSize) + align4(descriptionSize);
    }
  }
  return { format: 'elf', arch, blobSize, signed: false };
}

/** The container, processor, blob, fuse and signature of the executable in `bytes`. */
export function inspectExecutable(bytes) {
  const fuse = (state) => bytes.includes(Buffer.from(`${SEA_FUSE}:${state}`));
  const fuseState = fuse(1) ? 'flipped' : fuse(0) ? 'unflipped' : 'absent';
  let container;
  if (bytes.readUInt32BE(0) === 0x7f454c46) container = elf(bytes);
  else if (bytes.readUInt32LE(0) === 0xfeedfacf) container = machO(bytes);
  else if (bytes.toString('latin1', 0, 2) === 'MZ') container = pe(bytes);
  else throw new Error('not an ELF, PE or 64-bit Mach-O file');
  return { ...container, blob: container.blobSize > 0, fuse: fuseState };
}

/** `bytes` without its Mach-O code signature (injecting the blob would break it); unchanged when it has none. */
export function withoutMachOSignature(bytes) {
  const unsigned = unsign(bytes);
  return unsigned ? Buffer.from(unsigned) : bytes;
}

/**
 * `bytes` without its Authenticode signature: the certificate table's directory entry
 * cleared and the table, which Windows keeps at the end of the file, cut off.
 */
export function withoutAuthenticode(bytes) {
  const header = bytes.readUInt32LE(0x3c);
  const entry = header + 24 + 112 + PE_CERTIFICATE_TABLE * 8;
  const offset = bytes.readUInt32LE(entry);
  const size = bytes.readUInt32LE(entry + 4);
  if (size === 0) return bytes;
  if (offset + size !== bytes.length) throw new Error('the certificate table is not at the end of the file');
  const copy = Buffer.from(bytes.subarray(0, offset));
  copy.writeUInt32LE(0, entry);
  copy.writeUInt32LE(0, entry + 4);
  copy.writeUInt32LE(0, header + 24 + 64); // the image checksum, stale once the file changed
  return copy;
}
