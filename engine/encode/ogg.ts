/**
 * A minimal Ogg page writer (RFC 3533) for one logical stream: packets are laced into pages of at most 255
 * segments, a packet never spans two pages, and each page carries the granule position its last packet ends at.
 */

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let i = 0; i < 256; i++) {
    let r = i << 24;
    for (let j = 0; j < 8; j++) r = r & 0x80000000 ? (r << 1) ^ 0x04c11db7 : r << 1;
    table[i] = r >>> 0;
  }
  return table;
})();

function crc32(bytes: Uint8Array): number {
  let crc = 0;
  for (let i = 0; i < bytes.length; i++)
    crc = ((crc << 8) ^ (CRC_TABLE[((crc >>> 24) ^ (bytes[i] ?? 0)) & 0xff] ?? 0)) >>> 0;
  return crc;
}

const FLAG_BOS = 2;
const FLAG_EOS = 4;

export class OggWriter {
  readonly #serial: number;
  readonly #pages: Uint8Array[] = [];
  #sequence = 0;
  #packets: Uint8Array[] = [];
  #segments = 0;
  #granule = 0;

  constructor(serial: number) {
    this.#serial = serial >>> 0;
  }

  /** A header packet alone on its page (Ogg Opus requires the ID and comment headers to end their pages). */
  header(packet: Uint8Array, first: boolean): void {
    this.#page([packet], 0, first ? FLAG_BOS : 0);
  }

  /** Adds an audio packet ending at `granule`; the page is written when full or after `maxPackets`. */
  packet(packet: Uint8Array, granule: number, maxPackets: number): void {
    const lacing = Math.floor(packet.length / 255) + 1;
    if (this.#segments + lacing > 255) this.#flush(0);
    this.#packets.push(packet);
    this.#segments += lacing;
    this.#granule = granule;
    if (this.#packets.length >= maxPackets) this.#flush(0);
  }

  /** Writes the last page, marked end of stream, with `granule` (which may trim the last packet's padding). */
  finish(granule: number): Uint8Array {
    this.#granule = granule;
    this.#flush(FLAG_EOS);
    return Buffer.concat(this.#pages);
  }

  #flush(flags: number): void {
    if (this.#packets.length === 0 && flags !== FLAG_EOS) return;
    this.#page(this.#packets, this.#granule, flags);
    this.#packets = [];
    this.#segments = 0;
  }

  #page(packets: Uint8Array[], granule: number, flags: number): void {
    const lacing: number[] = [];
    for (const packet of packets) {
      for (let left = packet.length; ; left -= 255) {
        lacing.push(Math.min(255, left));
        if (left < 255) break;
      }
    }
    const body = packets.reduce((sum, packet) => sum + packet.length, 0);
    const page = new Uint8Array(27 + lacing.length + body);
    const view = new DataView(page.buffer);
    page.set([0x4f, 0x67, 0x67, 0x53], 0); // "OggS"
    page[5] = flags;
    view.setBigUint64(6, BigInt(granule), true);
    view.setUint32(14, this.#serial, true);
    view.setUint32(18, this.#sequence++, true);
    page[26] = lacing.length;
    page.set(lacing, 27);
    let offset = 27 + lacing.length;
    for (const packet of packets) {
      page.set(packet, offset);
      offset += packet.length;
    }
    view.setUint32(22, crc32(page), true);
    this.#pages.push(page);
  }
}
