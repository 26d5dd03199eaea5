/** One box of an ISO base media file (HEIF, AVIF, CR3, MP4): its type and where its body lies. */
export interface Box {
  type: string;
  /** First byte of the box (its size field). */
  start: number;
  /** First byte after the header (and after a `uuid` box's 16-byte user type). */
  body: number;
  /** First byte after the box. */
  end: number;
}

/** Enough boxes for any real file; a crafted one with millions of empty boxes stops here. */
const MAX_BOXES = 10_000;

/**
 * The boxes between `from` and `to`, each checked to lie within them: a size that runs past its
 * parent, or is smaller than its own header, ends the list there (the bytes are not trusted further).
 */
export function boxes(data: Uint8Array, from = 0, to = data.length): Box[] {
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const found: Box[] = [];
  let at = from;
  while (at + 8 <= to && found.length < MAX_BOXES) {
    let size = view.getUint32(at);
    const type = String.fromCharCode(data[at + 4]!, data[at + 5]!, data[at + 6]!, data[at + 7]!);
    let header = 8;
    if (size === 1) {
      if (at + 16 > to) break;
      const big = view.getBigUint64(at + 8);
      if (big > BigInt(to - at)) break;
      size = Number(big);
      header = 16;
    } else if (size === 0) {
      size = to - at;
    }
    if (type === 'uuid') header += 16;
    if (size < header || at + size > to) break;
    found.push({ type, start: at, body: at + header, end: at + size });
    at += size;
  }
  return found;
}

/** The first child of `parent` of the given type; `skip` bytes of the parent's body come before its children. */
export function child(data: Uint8Array, parent: Box, type: string, skip = 0): Box | undefined {
  return boxes(data, parent.body + skip, parent.end).find((box) => box.type === type);
}

/** Reads big-endian integers within a range, throwing rather than reading past it. */
export class Reader {
  private readonly view: DataView;

  constructor(
    private readonly data: Uint8Array,
    public at: number,
    private readonly end: number,
  ) {
    this.view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  }

  private need(bytes: number): number {
    const at = this.at;
    if (at + bytes > this.end) throw new RangeError('box ends early');
    this.at += bytes;
    return at;
  }

  skip(bytes: number): void {
    this.need(bytes);
  }

  u8(): number {
    return this.view.getUint8(this.need(1));
  }

  u16(): number {
    return this.view.getUint16(this.need(2));
  }

  u32(): number {
    return this.view.getUint32(this.need(4));
  }

  /** An unsigned integer of 0, 2, 4 or 8 bytes (the sizes `iloc` declares for its fields). */
  uint(bytes: number): number {
    if (bytes === 0) return 0;
    if (bytes === 2) return this.u16();
    if (bytes === 4) return this.u32();
    if (bytes === 8) return Number(this.view.getBigUint64(this.need(8)));
    throw new RangeError(`unsupported field size ${bytes}`);
  }

  fourcc(): string {
    const at = this.need(4);
    return String.fromCharCode(this.data[at]!, this.data[at + 1]!, this.data[at + 2]!, this.data[at + 3]!);
  }
}
