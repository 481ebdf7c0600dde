import { Readable } from 'node:stream';
import { crc32 } from 'node:zlib';

/** One file of a ZIP: bytes already in hand (a JSON file) or a stream opened when its turn comes. */
export interface ZipEntry {
  name: string;
  body: Buffer | (() => Promise<AsyncIterable<Buffer | Uint8Array>>);
  modifiedAt?: Date;
}

const U32_MAX = 0xffffffff;

function dosDateTime(date: Date): { time: number; date: number } {
  const year = Math.max(1980, date.getUTCFullYear());
  return {
    time: (date.getUTCHours() << 11) | (date.getUTCMinutes() << 5) | Math.floor(date.getUTCSeconds() / 2),
    date: ((year - 1980) << 9) | ((date.getUTCMonth() + 1) << 5) | date.getUTCDate(),
  };
}

/**
 * A ZIP written as it goes, files stored as they are (videos and pictures are compressed already):
 * each file's bytes pass through once, its CRC and size follow it in a data descriptor, and only the
 * central directory (about a hundred bytes a file) is kept until the end. Every entry is ZIP64, so
 * a file or an archive past 4 GiB needs nothing special. `progress` is told of the bytes of the
 * files as they pass, and of each file once written.
 */
export function zipStream(
  entries: AsyncIterable<ZipEntry> | Iterable<ZipEntry>,
  progress?: { onBytes?: (bytes: number) => void; onEntry?: (name: string, bytes: number) => void },
): Readable {
  async function* generate(): AsyncGenerator<Buffer> {
    const central: Buffer[] = [];
    let offset = 0;
    let count = 0;
    for await (const entry of entries) {
      const name = Buffer.from(entry.name, 'utf8');
      const { time, date } = dosDateTime(entry.modifiedAt ?? new Date());
      const headerOffset = offset;
      // Local header: sizes and CRC follow the data (flag 3), names are UTF-8 (flag 11).
      const local = Buffer.alloc(30 + name.length + 20);
      local.writeUInt32LE(0x04034b50, 0);
      local.writeUInt16LE(45, 4);
      local.writeUInt16LE(0x0808, 6);
      local.writeUInt16LE(0, 8);
      local.writeUInt16LE(time, 10);
      local.writeUInt16LE(date, 12);
      local.writeUInt32LE(0, 14);
      local.writeUInt32LE(U32_MAX, 18);
      local.writeUInt32LE(U32_MAX, 22);
      local.writeUInt16LE(name.length, 26);
      local.writeUInt16LE(20, 28);
      name.copy(local, 30);
      // ZIP64 extra field, sizes zero here: the data descriptor carries them, on 8 bytes.
      local.writeUInt16LE(0x0001, 30 + name.length);
      local.writeUInt16LE(16, 32 + name.length);
      yield local;
      offset += local.length;

      let crc = 0;
      let size = 0;
      const source = Buffer.isBuffer(entry.body) ? [entry.body] : await entry.body();
      for await (const chunk of source) {
        const bytes = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
        if (bytes.length === 0) continue;
        crc = crc32(bytes, crc);
        size += bytes.length;
        progress?.onBytes?.(bytes.length);
        yield bytes;
      }
      offset += size;

      const descriptor = Buffer.alloc(24);
      descriptor.writeUInt32LE(0x08074b50, 0);
      descriptor.writeUInt32LE(crc >>> 0, 4);
      descriptor.writeBigUInt64LE(BigInt(size), 8);
      descriptor.writeBigUInt64LE(BigInt(size), 16);
      yield descriptor;
      offset += descriptor.length;

      const record = Buffer.alloc(46 + name.length + 28);
      record.writeUInt32LE(0x02014b50, 0);
      record.writeUInt16LE((3 << 8) | 45, 4);
      record.writeUInt16LE(45, 6);
      record.writeUInt16LE(0x0808, 8);
      record.writeUInt16LE(0, 10);
      record.writeUInt16LE(time, 12);
      record.writeUInt16LE(date, 14);
      record.writeUInt32LE(crc >>> 0, 16);
      record.writeUInt32LE(U32_MAX, 20);
      record.writeUInt32LE(U32_MAX, 24);
      record.writeUInt16LE(name.length, 28);
      record.writeUInt16LE(28, 30);
      record.writeUInt16LE(0, 32);
      record.writeUInt16LE(0, 34);
      record.writeUInt16LE(0, 36);
      record.writeUInt32LE((0o100644 << 16) >>> 0, 38);
      record.writeUInt32LE(U32_MAX, 42);
      name.copy(record, 46);
      const extra = 46 + name.length;
      record.writeUInt16LE(0x0001, extra);
      record.writeUInt16LE(24, extra + 2);
      record.writeBigUInt64LE(BigInt(size), extra + 4);
      record.writeBigUInt64LE(BigInt(size), extra + 12);
      record.writeBigUInt64LE(BigInt(headerOffset), extra + 20);
      central.push(record);
      count += 1;
      progress?.onEntry?.(entry.name, size);
    }

    const centralOffset = offset;
    let centralSize = 0;
    for (const record of central) {
      yield record;
      centralSize += record.length;
    }
    const end = Buffer.alloc(56 + 20 + 22);
    // ZIP64 end of central directory record.
    end.writeUInt32LE(0x06064b50, 0);
    end.writeBigUInt64LE(44n, 4);
    end.writeUInt16LE((3 << 8) | 45, 12);
    end.writeUInt16LE(45, 14);
    end.writeUInt32LE(0, 16);
    end.writeUInt32LE(0, 20);
    end.writeBigUInt64LE(BigInt(count), 24);
    end.writeBigUInt64LE(BigInt(count), 32);
    end.writeBigUInt64LE(BigInt(centralSize), 40);
    end.writeBigUInt64LE(BigInt(centralOffset), 48);
    // Its locator.
    end.writeUInt32LE(0x07064b50, 56);
    end.writeUInt32LE(0, 60);
    end.writeBigUInt64LE(BigInt(centralOffset + centralSize), 64);
    end.writeUInt32LE(1, 72);
    // The classic end record, every field pointing to the ZIP64 one.
    end.writeUInt32LE(0x06054b50, 76);
    end.writeUInt16LE(0, 80);
    end.writeUInt16LE(0, 82);
    end.writeUInt16LE(0xffff, 84);
    end.writeUInt16LE(0xffff, 86);
    end.writeUInt32LE(U32_MAX, 88);
    end.writeUInt32LE(U32_MAX, 92);
    end.writeUInt16LE(0, 96);
    yield end;
  }
  return Readable.from(generate(), { objectMode: false });
}
