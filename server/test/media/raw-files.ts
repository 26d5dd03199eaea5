import sharp from 'sharp';

/**
 * Small RAW files built the way cameras lay them out (TIFF IFDs with SubIFDs, EXIF and GPS IFDs,
 * a real sensor-data IFD next to a real JPEG preview; RAF's header; CR3's boxes), so the
 * extractor is tested on the structures it meets, not on a format of its own.
 */

type Value = { type: 'byte' | 'ascii' | 'short' | 'long' | 'rational' | 'undefined'; values: number[] | string } | { ifd: Ifd[] };

export interface Ifd {
  tags: Map<number, Value>;
  /** Bytes stored outside the IFD that a tag points at (strips, JPEGs): their offsets are filled in. */
  blobs?: Map<number, { data: Buffer; lengthTag: number }>;
}

const TYPE = { byte: 1, ascii: 2, short: 3, long: 4, rational: 5, undefined: 7 } as const;
const WIDTH = { byte: 1, ascii: 1, short: 2, long: 4, rational: 8, undefined: 1 } as const;

export const short = (...values: number[]): Value => ({ type: 'short', values });
export const long = (...values: number[]): Value => ({ type: 'long', values });
export const ascii = (text: string): Value => ({ type: 'ascii', values: `${text}\0` });
export const bytes = (...values: number[]): Value => ({ type: 'byte', values });
export const rational = (...values: number[]): Value => ({ type: 'rational', values });

function encodeValue(value: Extract<Value, { type: string }>): Buffer {
  if (value.type === 'ascii') return Buffer.from(value.values as string, 'latin1');
  const values = value.values as number[];
  const out = Buffer.alloc(values.length * WIDTH[value.type]);
  values.forEach((v, i) => {
    if (value.type === 'short') out.writeUInt16LE(v, i * 2);
    else if (value.type === 'long') out.writeUInt32LE(v, i * 4);
    else if (value.type === 'rational') {
      // Six decimals are plenty for the coordinates and times written here.
      out.writeUInt32LE(Math.round(v * 1_000_000), i * 8);
      out.writeUInt32LE(1_000_000, i * 8 + 4);
    } else out.writeUInt8(v, i);
  });
  return out;
}

/** A little-endian TIFF file with the IFD chain `chain` (IFD0, IFD1…), every pointer resolved. */
export function writeTiff(chain: Ifd[], magic = 42): Buffer {
  const parts: Buffer[] = [];
  let size = 8;
  const append = (data: Buffer): number => {
    if (size % 2) {
      parts.push(Buffer.alloc(1));
      size++;
    }
    const at = size;
    parts.push(data);
    size += data.length;
    return at;
  };

  /** Writes one IFD (and everything below it) and returns its offset; `next` is patched later. */
  const writeIfd = (ifd: Ifd): { at: number; patchNext: (offset: number) => void } => {
    const blobOffsets = new Map<number, number>();
    for (const [tag, blob] of ifd.blobs ?? []) blobOffsets.set(tag, append(blob.data));
    const children = new Map<number, number[]>();
    for (const [tag, value] of ifd.tags)
      if ('ifd' in value)
        children.set(
          tag,
          value.ifd.map((sub) => writeIfd(sub).at),
        );
    const tags = new Map(ifd.tags);
    for (const [tag, blob] of ifd.blobs ?? []) {
      tags.set(tag, long(blobOffsets.get(tag)!));
      tags.set(blob.lengthTag, long(blob.data.length));
    }
    const sorted = [...tags.keys()].sort((a, b) => a - b);
    const table = Buffer.alloc(2 + sorted.length * 12 + 4);
    table.writeUInt16LE(sorted.length, 0);
    const outside: { entry: number; data: Buffer }[] = [];
    sorted.forEach((tag, i) => {
      const value = tags.get(tag)!;
      const entry = 2 + i * 12;
      table.writeUInt16LE(tag, entry);
      if ('ifd' in value) {
        const offsets = children.get(tag)!;
        table.writeUInt16LE(TYPE.long, entry + 2);
        table.writeUInt32LE(offsets.length, entry + 4);
        if (offsets.length === 1) table.writeUInt32LE(offsets[0]!, entry + 8);
        else outside.push({ entry, data: encodeValue({ type: 'long', values: offsets }) });
        return;
      }
      const data = encodeValue(value);
      table.writeUInt16LE(TYPE[value.type], entry + 2);
      table.writeUInt32LE(data.length / WIDTH[value.type], entry + 4);
      if (data.length <= 4) data.copy(table, entry + 8);
      else outside.push({ entry, data });
    });
    for (const { entry, data } of outside) table.writeUInt32LE(append(data), entry + 8);
    const at = append(table);
    return { at, patchNext: (offset) => table.writeUInt32LE(offset, table.length - 4) };
  };

  const written = chain.map(writeIfd);
  written.forEach((ifd, i) => ifd.patchNext(written[i + 1]?.at ?? 0));
  const header = Buffer.alloc(8);
  header.write('II', 0, 'latin1');
  header.writeUInt16LE(magic, 2);
  header.writeUInt32LE(written[0]!.at, 4);
  return Buffer.concat([header, ...parts]);
}

/**
 * An image whose top is red and bottom blue, with a green band down its left side: any rotation
 * or mirror shows in where the colours end up.
 */
export function upright(width: number, height: number): sharp.Sharp {
  const px = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 3;
      const colour = x < width / 8 ? [20, 200, 20] : y < height / 2 ? [220, 20, 20] : [20, 20, 220];
      px.set(colour, i);
    }
  return sharp(px, { raw: { width, height, channels: 3 } });
}

/** Which colour dominates a pixel: 'red', 'green' or 'blue'. */
export async function colourAt(image: Buffer, x: number, y: number): Promise<string> {
  const { data, info } = await sharp(image).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const px = Math.min(info.width - 1, Math.max(0, Math.round(x * (info.width - 1))));
  const py = Math.min(info.height - 1, Math.max(0, Math.round(y * (info.height - 1))));
  const i = (py * info.width + px) * 3;
  const [r, g, b] = [data[i]!, data[i + 1]!, data[i + 2]!];
  return r > g && r > b ? 'red' : g > b ? 'green' : 'blue';
}

export const TAKEN = '2022:05:06 07:08:09';
export const PARIS = { latitude: 48.8584, longitude: 2.2945 };

function exifAndGps(): Map<number, Value> {
  const exif: Ifd = { tags: new Map([[36867, ascii(TAKEN)]]) };
  const gps: Ifd = {
    tags: new Map<number, Value>([
      [0, bytes(2, 3, 0, 0)],
      [1, ascii('N')],
      [2, rational(48, 51, 30.24)],
      [3, ascii('E')],
      [4, rational(2, 17, 40.2)],
    ]),
  };
  return new Map<number, Value>([
    [34665, { ifd: [exif] }],
    [34853, { ifd: [gps] }],
  ]);
}

/**
 * A DNG as cameras and converters write it: IFD0 a small uncompressed RGB thumbnail with the
 * orientation, EXIF and GPS; SubIFD 1 the CFA sensor data; SubIFD 2 a JPEG preview (`jpeg`).
 */
export async function makeDng(jpeg: Buffer, orientation: number): Promise<Buffer> {
  const thumb = await upright(32, 24).raw().toBuffer();
  const sensor: Ifd = {
    tags: new Map<number, Value>([
      [254, long(0)],
      [256, long(64)],
      [257, long(48)],
      [258, short(16)],
      [259, short(1)],
      [262, short(32803)],
      [277, short(1)],
      [278, long(48)],
      [33421, short(2, 2)],
      [33422, bytes(0, 1, 1, 2)],
    ]),
    blobs: new Map([[273, { data: Buffer.alloc(64 * 48 * 2, 0x11), lengthTag: 279 }]]),
  };
  const meta = await sharp(jpeg).metadata();
  const preview: Ifd = {
    tags: new Map<number, Value>([
      [254, long(1)],
      [256, long(meta.width)],
      [257, long(meta.height)],
      [258, short(8, 8, 8)],
      [259, short(7)],
      [262, short(6)],
      [277, short(3)],
      [278, long(meta.height)],
    ]),
    blobs: new Map([[273, { data: jpeg, lengthTag: 279 }]]),
  };
  const ifd0: Ifd = {
    tags: new Map<number, Value>([
      [254, long(1)],
      [256, long(32)],
      [257, long(24)],
      [258, short(8, 8, 8)],
      [259, short(1)],
      [262, short(2)],
      [271, ascii('Nimbus')],
      [272, ascii('Test Camera')],
      [274, short(orientation)],
      [277, short(3)],
      [278, long(24)],
      [330, { ifd: [sensor, preview] }],
      [50706, bytes(1, 4, 0, 0)],
      [50708, ascii('Nimbus Test Camera')],
      ...exifAndGps(),
    ]),
    blobs: new Map([[273, { data: thumb, lengthTag: 279 }]]),
  };
  return writeTiff([ifd0]);
}

/**
 * A NEF-like TIFF: IFD0 with the orientation and a SubIFD whose JpgFromRaw (513/514) is the
 * large preview, and an IFD1 thumbnail JPEG that must not be the one chosen.
 */
export async function makeNef(jpeg: Buffer, small: Buffer, orientation: number): Promise<Buffer> {
  const fromRaw: Ifd = { tags: new Map<number, Value>([[259, short(6)]]), blobs: new Map([[513, { data: jpeg, lengthTag: 514 }]]) };
  const ifd0: Ifd = {
    tags: new Map<number, Value>([
      [271, ascii('NIKON CORPORATION')],
      [272, ascii('NIKON TEST')],
      [274, short(orientation)],
      [330, { ifd: [fromRaw] }],
      ...exifAndGps(),
    ]),
  };
  const ifd1: Ifd = { tags: new Map<number, Value>([[259, short(6)]]), blobs: new Map([[513, { data: small, lengthTag: 514 }]]) };
  return writeTiff([ifd0, ifd1]);
}

/** A Fujifilm RAF: its fixed header, then the JPEG (with its own EXIF) at the offset the header gives. */
export function makeRaf(jpeg: Buffer): Buffer {
  const header = Buffer.alloc(160);
  header.write('FUJIFILMCCD-RAW 0201FF383501', 0, 'latin1');
  header.write('X-T99', 28, 'latin1');
  header.writeUInt32BE(header.length, 84);
  header.writeUInt32BE(jpeg.length, 88);
  return Buffer.concat([header, jpeg, Buffer.alloc(256, 0x22)]);
}

function box(type: string, ...content: Buffer[]): Buffer {
  const body = Buffer.concat(content);
  const head = Buffer.alloc(8);
  head.writeUInt32BE(8 + body.length, 0);
  head.write(type, 4, 'latin1');
  return Buffer.concat([head, body]);
}

/** A Canon CR3: ftyp `crx `, moov with Canon's uuid box (CMT1 with the orientation, THMB), then the PRVW uuid box. */
export async function makeCr3(jpeg: Buffer, small: Buffer, orientation: number): Promise<Buffer> {
  const cmt1 = writeTiff([
    {
      tags: new Map<number, Value>([
        [271, ascii('Canon')],
        [274, short(orientation)],
      ]),
    },
  ]);
  const thmbHead = Buffer.alloc(16);
  thmbHead.writeUInt16BE(160, 4);
  thmbHead.writeUInt16BE(120, 6);
  thmbHead.writeUInt32BE(small.length, 8);
  const prvwHead = Buffer.alloc(16);
  prvwHead.writeUInt16BE(1, 4);
  prvwHead.writeUInt32BE(jpeg.length, 12);
  const canonUuid = Buffer.from('85c0b687820f11e08111f4ce462b6a48', 'hex');
  const previewUuid = Buffer.from('eaf42b5e1c984b88b9fbb7dc406e4d16', 'hex');
  return Buffer.concat([
    box('ftyp', Buffer.from('crx \0\0\0\x01crx isom', 'latin1')),
    box('moov', box('uuid', canonUuid, box('CMT1', cmt1), box('THMB', thmbHead, small))),
    box('uuid', previewUuid, Buffer.alloc(8), box('PRVW', prvwHead, jpeg)),
    box('mdat', Buffer.alloc(512, 0x33)),
  ]);
}

/**
 * An Olympus maker note (new style: "OLYMPUS\0", byte order, offsets from its own start) whose
 * CameraSettings IFD points at the large preview, which here lies inside the note.
 */
function olympusMakerNote(jpeg: Buffer): Buffer {
  const header = Buffer.concat([Buffer.from('OLYMPUS\0II', 'latin1'), Buffer.from([3, 0])]);
  // Main IFD at 12: one entry, CameraSettings (0x2020) of type IFD pointing at 30.
  const main = Buffer.alloc(2 + 12 + 4);
  main.writeUInt16LE(1, 0);
  main.writeUInt16LE(0x2020, 2);
  main.writeUInt16LE(13, 4);
  main.writeUInt32LE(1, 6);
  main.writeUInt32LE(30, 10);
  // CameraSettings at 30: PreviewImageValid, PreviewImageStart, PreviewImageLength.
  const settings = Buffer.alloc(2 + 3 * 12 + 4);
  const previewAt = 30 + settings.length;
  settings.writeUInt16LE(3, 0);
  [
    [0x0100, 1],
    [0x0101, previewAt],
    [0x0102, jpeg.length],
  ].forEach(([tag, value], i) => {
    settings.writeUInt16LE(tag!, 2 + i * 12);
    settings.writeUInt16LE(4, 4 + i * 12);
    settings.writeUInt32LE(1, 6 + i * 12);
    settings.writeUInt32LE(value!, 10 + i * 12);
  });
  return Buffer.concat([header, main, settings, jpeg]);
}

/** An ORF: Olympus' TIFF magic number, a small IFD1 thumbnail, and the large preview in the maker note. */
export function makeOrf(jpeg: Buffer, small: Buffer, orientation: number): Buffer {
  const note = olympusMakerNote(jpeg);
  const exif: Ifd = {
    tags: new Map<number, Value>([
      [36867, ascii(TAKEN)],
      [37500, { type: 'undefined', values: Array.from(note) }],
    ]),
  };
  const ifd0: Ifd = {
    tags: new Map<number, Value>([
      [271, ascii('OLYMPUS IMAGING CORP.')],
      [274, short(orientation)],
      [34665, { ifd: [exif] }],
    ]),
  };
  const ifd1: Ifd = { tags: new Map<number, Value>([[259, short(6)]]), blobs: new Map([[513, { data: small, lengthTag: 514 }]]) };
  return writeTiff([ifd0, ifd1], 0x4f52);
}
