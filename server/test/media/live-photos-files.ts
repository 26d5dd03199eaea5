import { randomUUID } from 'node:crypto';
import { pattern, makeVideo } from './support.js';

/** A JPEG segment: marker, big-endian length (counting itself), body. */
function segment(marker: number, body: Buffer): Buffer {
  const head = Buffer.alloc(4);
  head.writeUInt16BE(0xff00 | marker, 0);
  head.writeUInt16BE(body.length + 2, 2);
  return Buffer.concat([head, body]);
}

/** Inserts segments right after a JPEG's start-of-image marker. */
function withSegments(jpeg: Buffer, segments: Buffer[]): Buffer {
  return Buffer.concat([jpeg.subarray(0, 2), ...segments, jpeg.subarray(2)]);
}

/**
 * An Apple maker note as iPhones write it: "Apple iOS\0", version 1, "MM", then one IFD whose
 * offsets count from the note's start, here with the ContentIdentifier (tag 0x11, ASCII).
 */
export function appleMakerNote(contentId: string, tagValue: Buffer = Buffer.from(`${contentId}\0`, 'latin1')): Buffer {
  const head = Buffer.concat([Buffer.from('Apple iOS\0', 'latin1'), Buffer.from([0, 1]), Buffer.from('MM', 'latin1')]);
  const ifd = Buffer.alloc(2 + 12 + 4);
  ifd.writeUInt16BE(1, 0);
  ifd.writeUInt16BE(0x11, 2);
  ifd.writeUInt16BE(2, 4);
  ifd.writeUInt32BE(tagValue.length, 6);
  ifd.writeUInt32BE(head.length + ifd.length, 10);
  return Buffer.concat([head, ifd, tagValue]);
}

/** An Exif APP1 body (big-endian TIFF) whose Exif IFD holds one MakerNote. */
function exifWithMakerNote(note: Buffer): Buffer {
  const ifd0 = 8;
  const exif = ifd0 + 18;
  const data = exif + 18;
  const tiff = Buffer.alloc(data + note.length);
  tiff.write('MM', 0, 'latin1');
  tiff.writeUInt16BE(42, 2);
  tiff.writeUInt32BE(ifd0, 4);
  // IFD0: one entry, the pointer to the Exif IFD.
  tiff.writeUInt16BE(1, ifd0);
  tiff.writeUInt16BE(0x8769, ifd0 + 2);
  tiff.writeUInt16BE(4, ifd0 + 4);
  tiff.writeUInt32BE(1, ifd0 + 6);
  tiff.writeUInt32BE(exif, ifd0 + 10);
  // Exif IFD: MakerNote (0x927c, UNDEFINED).
  tiff.writeUInt16BE(1, exif);
  tiff.writeUInt16BE(0x927c, exif + 2);
  tiff.writeUInt16BE(7, exif + 4);
  tiff.writeUInt32BE(note.length, exif + 6);
  tiff.writeUInt32BE(data, exif + 10);
  note.copy(tiff, data);
  return Buffer.concat([Buffer.from('Exif\0\0', 'latin1'), tiff]);
}

/** A real JPEG (sharp) carrying an Apple maker note with this ContentIdentifier: a Live Photo's still. */
export async function liveStill(contentId: string, note = appleMakerNote(contentId)): Promise<Buffer> {
  const jpeg = await pattern(96, 64).jpeg().toBuffer();
  return withSegments(jpeg, [segment(0xe1, exifWithMakerNote(note))]);
}

/** A MOV made by ffmpeg with the QuickTime metadata key iPhones give a Live Photo's video. */
export function liveMov(dir: string, contentId: string): Promise<Buffer> {
  return makeVideo(dir, `live-${randomUUID()}.mov`, [
    ...['-i', 'testsrc=duration=1:size=96x64:rate=10', '-pix_fmt', 'yuv420p', '-c:v', 'libx264'],
    ...['-metadata', `com.apple.quicktime.content.identifier=${contentId}`, '-movflags', 'use_metadata_tags'],
  ]);
}

/** A short MP4 made by ffmpeg: the clip a motion photo carries. */
export function clipMp4(dir: string): Promise<Buffer> {
  return makeVideo(dir, `clip-${randomUUID()}.mp4`, [
    ...['-i', 'testsrc=duration=1:size=96x64:rate=10', '-pix_fmt', 'yuv420p', '-c:v', 'libx264', '-movflags', '+faststart'],
  ]);
}

function xmpSegment(description: string): Buffer {
  const xmp =
    '<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">' +
    description +
    '</rdf:RDF></x:xmpmeta>';
  return segment(0xe1, Buffer.concat([Buffer.from('http://ns.adobe.com/xap/1.0/\0', 'latin1'), Buffer.from(xmp, 'utf8')]));
}

/** XMP of the current Google format: Camera:MotionPhoto and a Container:Directory giving the video's length. */
export function directoryXmp(videoLength: number): string {
  return (
    '<rdf:Description rdf:about="" xmlns:Camera="http://ns.google.com/photos/1.0/camera/" ' +
    'xmlns:Container="http://ns.google.com/photos/1.0/container/" xmlns:Item="http://ns.google.com/photos/1.0/container/item/" ' +
    'Camera:MotionPhoto="1" Camera:MotionPhotoVersion="1" Camera:MotionPhotoPresentationTimestampUs="0">' +
    '<Container:Directory><rdf:Seq>' +
    '<rdf:li rdf:parseType="Resource"><Container:Item Item:Mime="image/jpeg" Item:Semantic="Primary" Item:Length="0" Item:Padding="0"/></rdf:li>' +
    `<rdf:li rdf:parseType="Resource"><Container:Item Item:Mime="video/mp4" Item:Semantic="MotionPhoto" Item:Length="${videoLength}"/></rdf:li>` +
    '</rdf:Seq></Container:Directory></rdf:Description>'
  );
}

/** XMP of the older Google format: GCamera:MicroVideo with the video's offset from the end of the file. */
export function microVideoXmp(offset: number): string {
  return (
    '<rdf:Description rdf:about="" xmlns:GCamera="http://ns.google.com/photos/1.0/camera/" ' +
    `GCamera:MicroVideo="1" GCamera:MicroVideoVersion="1" GCamera:MicroVideoOffset="${offset}" GCamera:MicroVideoPresentationTimestampUs="0"/>`
  );
}

/** A motion photo: a real JPEG with the given XMP, and `video` appended after its end. */
export async function motionPhoto(xmp: string, video: Buffer, width = 96): Promise<Buffer> {
  const jpeg = await pattern(width, 64).jpeg().toBuffer();
  return Buffer.concat([withSegments(jpeg, [xmpSegment(xmp)]), video]);
}
