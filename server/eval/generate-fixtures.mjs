// Renders corpus.mjs into fixtures/ (checked in; rerun after changing the corpus):
//   node server/eval/generate-fixtures.mjs
// Needs ffmpeg with drawtext and the DejaVu fonts (Debian: ffmpeg, fonts-dejavu-core).
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import JSZip from 'jszip';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import piexif from 'piexifjs';
import { documents, photos, scans, videos } from './corpus.mjs';

const out = path.join(import.meta.dirname, 'fixtures');
const FONT = '/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf';
const FIXED = new Date('2026-01-01T00:00:00Z');

rmSync(out, { recursive: true, force: true });
const target = (file) => {
  const full = path.join(out, file);
  mkdirSync(path.dirname(full), { recursive: true });
  return full;
};
const ffmpeg = (...args) => execFileSync('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', ...args]);

function wrap(text, width) {
  const lines = [];
  for (const paragraph of text.split('\n')) {
    let line = '';
    for (const word of paragraph.split(/\s+/).filter(Boolean)) {
      if (line && line.length + word.length + 1 > width) {
        lines.push(line);
        line = word;
      } else line = line ? `${line} ${word}` : word;
    }
    lines.push(line);
  }
  return lines;
}

async function pdf(doc) {
  const file = await PDFDocument.create();
  file.setTitle(doc.title ?? path.basename(doc.path));
  file.setCreationDate(new Date(`${doc.date ?? '2026-01-01'}T09:00:00Z`));
  file.setModificationDate(new Date(`${doc.date ?? '2026-01-01'}T09:00:00Z`));
  file.setProducer('nimbus-eval');
  file.setCreator('nimbus-eval');
  const font = await file.embedFont(StandardFonts.Helvetica);
  const lines = wrap(doc.text, 88);
  for (let i = 0; i < lines.length; i += 48) {
    const page = file.addPage([612, 792]);
    lines.slice(i, i + 48).forEach((line, n) => page.drawText(line, { x: 56, y: 730 - n * 14, size: 11, font }));
  }
  writeFileSync(target(doc.path), await file.save({ useObjectStreams: false }));
}

const xml = (s) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

async function docx(doc) {
  const zip = new JSZip();
  const add = (name, content) => zip.file(name, content, { date: FIXED });
  add(
    '[Content_Types].xml',
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/><Override PartName="/docProps/core.xml" ContentType="application/vnd.openxmlformats-package.core-properties+xml"/></Types>',
  );
  add(
    '_rels/.rels',
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/><Relationship Id="rId2" Type="http://schemas.openxmlformats.org/package/2006/relationships/metadata/core-properties" Target="docProps/core.xml"/></Relationships>',
  );
  const body = doc.text
    .split('\n')
    .filter(Boolean)
    .map((para) => `<w:p><w:r><w:t xml:space="preserve">${xml(para)}</w:t></w:r></w:p>`)
    .join('');
  add(
    'word/document.xml',
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>${body}</w:body></w:document>`,
  );
  add(
    'docProps/core.xml',
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:dcterms="http://purl.org/dc/terms/" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"><dc:title>${xml(doc.title ?? '')}</dc:title><dc:creator>Jane Doe</dc:creator><dcterms:created xsi:type="dcterms:W3CDTF">${doc.date ?? '2026-01-01'}T09:00:00Z</dcterms:created></cp:coreProperties>`,
  );
  writeFileSync(target(doc.path), await zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' }));
}

function scan(item) {
  const textFile = path.join(out, '.lines.txt');
  writeFileSync(textFile, item.lines.join('\n'));
  // A sheet on a darker desk, slightly rotated, with sensor noise: what a phone photo of paper looks like.
  ffmpeg(
    '-f',
    'lavfi',
    '-i',
    'color=c=0xf1ede3:s=1000x1250',
    '-vf',
    `drawtext=fontfile=${FONT}:textfile=${textFile}:fontsize=38:fontcolor=0x1e1e1e:x=70:y=90:line_spacing=26,` +
      `noise=alls=10:allf=t:all_seed=${item.lines.length},rotate=${item.rotate}*PI/180:fillcolor=0x5a4a3a`,
    '-frames:v',
    '1',
    '-q:v',
    '6',
    target(item.path),
  );
  rmSync(textFile);
}

const dms = (value) => piexif.GPSHelper.degToDmsRational(Math.abs(value));

function photo(item) {
  const file = target(item.path);
  ffmpeg('-f', 'lavfi', '-i', `gradients=s=640x480:seed=${item.seed}:n=6:type=radial`, '-frames:v', '1', '-q:v', '7', file);
  const stamp = item.date.replace(/-/g, ':').replace('T', ' ');
  const exif = {
    '0th': { [piexif.ImageIFD.Make]: 'Apple', [piexif.ImageIFD.Model]: 'iPhone 13', [piexif.ImageIFD.DateTime]: stamp },
    Exif: { [piexif.ExifIFD.DateTimeOriginal]: stamp, [piexif.ExifIFD.DateTimeDigitized]: stamp },
    GPS: {},
  };
  if (item.gps) {
    const [lat, lon] = item.gps;
    exif.GPS = {
      [piexif.GPSIFD.GPSLatitudeRef]: lat >= 0 ? 'N' : 'S',
      [piexif.GPSIFD.GPSLatitude]: dms(lat),
      [piexif.GPSIFD.GPSLongitudeRef]: lon >= 0 ? 'E' : 'W',
      [piexif.GPSIFD.GPSLongitude]: dms(lon),
    };
  }
  const jpeg = readFileSync(file).toString('binary');
  writeFileSync(file, Buffer.from(piexif.insert(piexif.dump(exif), jpeg), 'binary'));
}

function video(item) {
  const iso = (v) =>
    `${v >= 0 ? '+' : '-'}${Math.abs(v)
      .toFixed(4)
      .padStart(v === item.gps?.[0] ? 7 : 8, '0')}`;
  const meta = ['-metadata', `creation_time=${item.date}`];
  if (item.gps) meta.push('-metadata', `location=${iso(item.gps[0])}${iso(item.gps[1])}/`);
  if (item.title) meta.push('-metadata', `title=${item.title}`);
  ffmpeg(
    '-f',
    'lavfi',
    '-i',
    `testsrc2=s=320x240:d=2:r=12,hue=h=${item.seed * 50}`,
    '-c:v',
    'libx264',
    '-preset',
    'veryfast',
    '-crf',
    '36',
    '-pix_fmt',
    'yuv420p',
    '-fflags',
    '+bitexact',
    '-flags:v',
    '+bitexact',
    ...meta,
    target(item.path),
  );
}

for (const doc of documents) {
  if (doc.path.endsWith('.pdf')) await pdf(doc);
  else if (doc.path.endsWith('.docx')) await docx(doc);
  else writeFileSync(target(doc.path), doc.text);
}
scans.forEach(scan);
photos.forEach(photo);
videos.forEach(video);
console.log(`${documents.length + scans.length + photos.length + videos.length} files in ${out}`);
