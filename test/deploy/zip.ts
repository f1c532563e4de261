/**
 * Reads the files of a zip archive (a Lambda deployment package): the central directory at its
 * end lists each entry, stored or deflated. Enough for the packages the CDK writes, without a
 * dependency or an `unzip` on the machine.
 */
import { inflateRawSync } from 'node:zlib';

const END_OF_CENTRAL_DIRECTORY = 0x06054b50;
const CENTRAL_DIRECTORY_ENTRY = 0x02014b50;
const LOCAL_HEADER = 0x04034b50;

export function unzip(archive: Buffer): Map<string, Buffer> {
  // The end record is the last 22 bytes, unless the archive has a comment after it.
  let end = archive.length - 22;
  while (end >= 0 && archive.readUInt32LE(end) !== END_OF_CENTRAL_DIRECTORY) end--;
  if (end < 0) throw new Error('Not a zip archive: no end of central directory.');
  const entries = archive.readUInt16LE(end + 10);
  let at = archive.readUInt32LE(end + 16);

  const files = new Map<string, Buffer>();
  for (let i = 0; i < entries; i++) {
    if (archive.readUInt32LE(at) !== CENTRAL_DIRECTORY_ENTRY) throw new Error(`Zip entry ${i}: no central directory header.`);
    const method = archive.readUInt16LE(at + 10);
    const compressedSize = archive.readUInt32LE(at + 20);
    const nameLength = archive.readUInt16LE(at + 28);
    const extraLength = archive.readUInt16LE(at + 30);
    const commentLength = archive.readUInt16LE(at + 32);
    const localHeader = archive.readUInt32LE(at + 42);
    const name = archive.toString('utf8', at + 46, at + 46 + nameLength);
    at += 46 + nameLength + extraLength + commentLength;
    if (name.endsWith('/')) continue;

    if (archive.readUInt32LE(localHeader) !== LOCAL_HEADER) throw new Error(`Zip entry ${name}: no local header.`);
    const dataStart = localHeader + 30 + archive.readUInt16LE(localHeader + 26) + archive.readUInt16LE(localHeader + 28);
    const data = archive.subarray(dataStart, dataStart + compressedSize);
    if (method === 0) files.set(name, Buffer.from(data));
    else if (method === 8) files.set(name, inflateRawSync(data));
    else throw new Error(`Zip entry ${name}: compression method ${method} is neither stored nor deflated.`);
  }
  return files;
}
