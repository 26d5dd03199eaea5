import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { boxes, child } from '../../src/media/isobmff.js';

export const hasHeifEnc = spawnSync('heif-enc', ['--help']).error === undefined;
export const hasExiftool = spawnSync('exiftool', ['-ver']).status === 0;
/** CI installs libheif-examples and exiftool (scripts/test.mjs); there their tests must run, never skip. */
export const skipWithoutHeifEnc = !(hasHeifEnc && hasExiftool) && process.env.CI !== 'true';

function run(tool: string, args: string[]): void {
  const result = spawnSync(tool, args);
  if (result.status !== 0) throw new Error(`${tool} failed: ${result.stderr?.toString() ?? result.error}`);
}

/**
 * A HEIC (or with `-A` an AVIF) encoded by libheif's heif-enc from the given PNG or JPEG inputs
 * (several make a multi-image file whose first is the primary); `exif` are exiftool assignments
 * written into it afterwards (`-GPSLatitude=…`).
 */
export function heifEnc(inputs: Buffer[], options: { args?: string[]; exif?: string[]; ext?: string } = {}): Buffer {
  const dir = mkdtempSync(path.join(tmpdir(), 'nimbus-heic-'));
  try {
    const files = inputs.map((data, i) => {
      const file = path.join(dir, `in${i}.${data[0] === 0xff ? 'jpg' : 'png'}`);
      writeFileSync(file, data);
      return file;
    });
    const out = path.join(dir, `out.${options.ext ?? 'heic'}`);
    run('heif-enc', ['-q', '70', ...(options.args ?? []), ...files, '-o', out]);
    if (options.exif?.length) run('exiftool', ['-q', '-overwrite_original', ...options.exif, out]);
    return readFileSync(out);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function sized(type: string, body: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(8 + body.length, 0);
  head.write(type, 4, 'latin1');
  return Buffer.concat([head, body]);
}

/**
 * The HEIC with an `irot` property (quarter turns anticlockwise) added to its primary image, as a
 * phone writes for a photo taken sideways; item locations are moved by the bytes added, so the
 * file stays valid. (heif-enc here has no option for it.)
 */
export function withRotation(heic: Buffer, quarterTurnsAnticlockwise: number): Buffer {
  const top = boxes(heic);
  const meta = top.find((b) => b.type === 'meta')!;
  const metaHead = heic.subarray(meta.start, meta.body + 4);
  const metaChildren = boxes(heic, meta.body + 4, meta.end);
  const primary = heic.readUInt16BE(child(heic, meta, 'pitm', 4)!.body + 4);
  const iprp = metaChildren.find((b) => b.type === 'iprp')!;
  const ipco = child(heic, iprp, 'ipco')!;
  const ipma = child(heic, iprp, 'ipma')!;
  const properties = boxes(heic, ipco.body, ipco.end);
  const irot = sized('irot', Buffer.from([quarterTurnsAnticlockwise & 3]));
  const newIpco = sized('ipco', Buffer.concat([heic.subarray(ipco.body, ipco.end), irot]));

  const version = heic[ipma.body]!;
  const wide = (heic[ipma.body + 3]! & 1) === 1;
  let at = ipma.body + 4;
  const count = heic.readUInt32BE(at);
  at += 4;
  const entries: Buffer[] = [];
  for (let i = 0; i < count; i++) {
    const idBytes = version < 1 ? 2 : 4;
    const id = version < 1 ? heic.readUInt16BE(at) : heic.readUInt32BE(at);
    const n = heic[at + idBytes]!;
    const length = idBytes + 1 + n * (wide ? 2 : 1);
    let entry = Buffer.from(heic.subarray(at, at + length));
    if (id === primary) {
      const added = Buffer.alloc(wide ? 2 : 1);
      if (wide) added.writeUInt16BE(0x8000 | (properties.length + 1));
      else added[0] = 0x80 | (properties.length + 1);
      entry = Buffer.concat([entry, added]);
      entry[idBytes] = n + 1;
    }
    entries.push(entry);
    at += length;
  }
  const newIpma = sized('ipma', Buffer.concat([heic.subarray(ipma.body, ipma.body + 8), ...entries]));
  const newIprp = sized(
    'iprp',
    Buffer.concat(
      boxes(heic, iprp.body, iprp.end).map((b) =>
        b.type === 'ipco' ? newIpco : b.type === 'ipma' ? newIpma : heic.subarray(b.start, b.end),
      ),
    ),
  );
  const body = Buffer.concat(metaChildren.map((b) => (b.type === 'iprp' ? newIprp : heic.subarray(b.start, b.end))));
  const newMeta = Buffer.concat([metaHead, body]);
  newMeta.writeUInt32BE(newMeta.length, 0);
  const delta = newMeta.length - (meta.end - meta.start);

  // Every item's data lies after `meta` (in mdat): its offsets move by what meta grew.
  const iloc = boxes(newMeta, 12, newMeta.length).find((b) => b.type === 'iloc')!;
  const v = newMeta[iloc.body]!;
  let p = iloc.body + 4;
  const [offsetSize, lengthSize] = [newMeta[p]! >> 4, newMeta[p]! & 15];
  const [baseSize, indexSize] = [newMeta[p + 1]! >> 4, v >= 1 ? newMeta[p + 1]! & 15 : 0];
  p += 2;
  const items = v < 2 ? newMeta.readUInt16BE(p) : newMeta.readUInt32BE(p);
  p += v < 2 ? 2 : 4;
  const bump = (size: number) => {
    if (size === 4) newMeta.writeUInt32BE(newMeta.readUInt32BE(p) + delta, p);
    else if (size === 8) newMeta.writeBigUInt64BE(newMeta.readBigUInt64BE(p) + BigInt(delta), p);
  };
  for (let i = 0; i < items; i++) {
    p += v < 2 ? 2 : 4;
    if (v >= 1) p += 2;
    p += 2;
    const base = baseSize === 4 ? newMeta.readUInt32BE(p) : baseSize === 8 ? Number(newMeta.readBigUInt64BE(p)) : 0;
    if (base > 0) bump(baseSize);
    p += baseSize;
    const extents = newMeta.readUInt16BE(p);
    p += 2;
    for (let e = 0; e < extents; e++) {
      p += indexSize;
      if (base === 0) bump(offsetSize);
      p += offsetSize + lengthSize;
    }
  }
  return Buffer.concat([...top.map((b) => (b.type === 'meta' ? newMeta : heic.subarray(b.start, b.end)))]);
}
