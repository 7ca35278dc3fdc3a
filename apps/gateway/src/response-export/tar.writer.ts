// A tar archive (POSIX ustar, with a pax header for names ustar cannot hold)
// written entry by entry: each entry is its header, its bytes and padding to
// 512 bytes, and nothing is kept between entries, so an archive of any number
// of files is written in constant memory (a zip's central directory would
// grow with every entry). Every archiver and file manager opens it.
const block = 512;

export function tarEntry(name: string, body: Buffer, modifiedAt: Date): Buffer[] {
  return [...tarEntryHead(name, body.length, modifiedAt), body, tarPadding(body.length)];
}

// What comes before an entry's bytes, for an entry written as its bytes
// arrive: its size must be known first. The bytes then follow, then tarPadding.
export function tarEntryHead(name: string, size: number, modifiedAt: Date): Buffer[] {
  const seconds = Math.floor(modifiedAt.getTime() / 1000);
  const nameBytes = Buffer.byteLength(name);
  const parts: Buffer[] = [];
  if (nameBytes > 100) {
    // A pax extended header names the entry whole; the ustar name is cut.
    const record = paxRecord('path', name);
    parts.push(header('PaxHeader', record.length, seconds, 'x'), record, tarPadding(record.length));
  }
  parts.push(header(truncate(name, 100), size, seconds, '0'));
  return parts;
}

// Fills an entry of `size` bytes up to the next 512-byte block.
export function tarPadding(size: number): Buffer {
  return Buffer.alloc((block - (size % block)) % block);
}

// Two empty blocks end an archive.
export function tarEnd(): Buffer {
  return Buffer.alloc(block * 2);
}

function header(name: string, size: number, seconds: number, type: '0' | 'x'): Buffer {
  const buffer = Buffer.alloc(block);
  buffer.write(name, 0, 100, 'utf8');
  buffer.write(octal(0o644, 8), 100, 'ascii');
  buffer.write(octal(0, 8), 108, 'ascii');
  buffer.write(octal(0, 8), 116, 'ascii');
  buffer.write(octal(size, 12), 124, 'ascii');
  buffer.write(octal(seconds, 12), 136, 'ascii');
  buffer.write(' '.repeat(8), 148, 'ascii');
  buffer.write(type, 156, 'ascii');
  buffer.write('ustar\u000000', 257, 'ascii');
  let sum = 0;
  for (const byte of buffer) sum += byte;
  buffer.write(`${sum.toString(8).padStart(6, '0')}\u0000 `, 148, 'ascii');
  return buffer;
}

// `<length> <key>=<value>\n`, the length counting itself.
function paxRecord(key: string, value: string): Buffer {
  const rest = ` ${key}=${value}\n`;
  const restBytes = Buffer.byteLength(rest);
  let length = restBytes + String(restBytes).length;
  if (String(length).length + restBytes !== length) length = restBytes + String(length).length;
  return Buffer.from(`${length}${rest}`, 'utf8');
}

function octal(value: number, width: number): string {
  return `${value.toString(8).padStart(width - 1, '0')}\u0000`;
}

function truncate(name: string, bytes: number): string {
  let cut = name;
  while (Buffer.byteLength(cut) > bytes) cut = cut.slice(0, -1);
  return cut;
}
