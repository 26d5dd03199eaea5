// The people evaluation against a built server: each part on a fresh account (uploads its photos,
// lets the background jobs find and group the faces), then scores the people the server made
// against who is really in each photo (render.mjs's manifest), names each person after the
// identity most of its faces belong to, and asks AI search for them by name.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { Client, folderMaker, multipart } from '../harness.mjs';
import { PARTS, identities, identityOf, isStranger, scenes } from './corpus.mjs';
import { facePhotoFile } from './render.mjs';

/** A found face is the expected one when their boxes overlap this much, or its centre is inside. */
const MIN_OVERLAP = 0.1;
const TOP = 5;
const UNKNOWN_NAME = 'Maria Gonzalez';

function overlap(a, b) {
  const w = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x);
  const h = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y);
  if (w <= 0 || h <= 0) return 0;
  const inter = w * h;
  return inter / (a.width * a.height + b.width * b.height - inter);
}

const centreInside = (found, expected) => {
  const cx = found.x + found.width / 2;
  const cy = found.y + found.height / 2;
  return cx >= expected.x && cx <= expected.x + expected.width && cy >= expected.y && cy <= expected.y + expected.height;
};

/**
 * Pairs the faces the server found in a photo with the faces in it, best overlap first. Returns the
 * identity of each found face (null: nobody expected there) and how many expected faces were found.
 */
export function matchFaces(expected, found) {
  const pairs = [];
  for (const [e, exp] of expected.entries()) {
    for (const [f, face] of found.entries()) {
      const iou = overlap(exp.box, face.box);
      const inside = centreInside(face.box, exp.box);
      if (iou >= MIN_OVERLAP || inside) pairs.push({ e, f, rank: (inside ? 1 : 0) + iou });
    }
  }
  pairs.sort((a, b) => b.rank - a.rank);
  const identityOfFound = found.map(() => null);
  const usedExpected = new Set();
  for (const { e, f } of pairs) {
    if (usedExpected.has(e) || identityOfFound[f] !== null) continue;
    usedExpected.add(e);
    identityOfFound[f] = expected[e].identity;
  }
  return { identityOfFound, matched: usedExpected.size, missed: expected.filter((_, e) => !usedExpected.has(e)) };
}

async function waitForFaces(app, client, clock, onProgress) {
  const started = performance.now();
  for (let idle = 0, round = 0; idle < 2; round++) {
    clock.advance(10_000);
    const ran = await app.background.drainJobs();
    const settings = await client.request('GET', '/people-service/settings');
    idle = ran === 0 && settings.pendingPhotos === 0 ? idle + 1 : 0;
    if (round % 20 === 19) onProgress(`  ${settings.scannedPhotos} photos scanned, ${settings.pendingPhotos} waiting`);
  }
  return (performance.now() - started) / 1000;
}

async function uploadPart(client, photos) {
  const folderFor = folderMaker(client);
  const fileIds = new Map();
  for (const photo of photos) {
    // Without the part's folder: both parts look like one camera roll.
    const inDrive = photo.path.split('/').slice(1).join('/');
    const parent = await folderFor(path.dirname(inDrive));
    const data = readFileSync(facePhotoFile(photo.path));
    const form = multipart({ filename: path.basename(inDrive), parent, currentID: 'e', size: String(data.length) }, data);
    const dto = await client.request('POST', '/file-service/upload', form.body, { 'content-type': form.contentType });
    fileIds.set(photo.path, dto._id);
  }
  return fileIds;
}

const mean = (values) => (values.length ? values.reduce((s, v) => s + v, 0) / values.length : 0);

/** Purity, recall and per-identity figures over the found faces that match an expected one. */
export function scoreClusters(faces) {
  const byPerson = new Map();
  const byIdentity = new Map();
  for (const face of faces) {
    const person = face.personId ?? `alone:${face.id}`;
    if (!byPerson.has(person)) byPerson.set(person, []);
    byPerson.get(person).push(face);
    if (!byIdentity.has(face.identity)) byIdentity.set(face.identity, []);
    byIdentity.get(face.identity).push(face);
  }
  const majority = new Map();
  let pure = 0;
  for (const [person, members] of byPerson) {
    const counts = new Map();
    for (const m of members) counts.set(m.identity, (counts.get(m.identity) ?? 0) + 1);
    const [top, count] = [...counts].sort((a, b) => b[1] - a[1])[0];
    majority.set(person, top);
    pure += count;
  }
  const perIdentity = [];
  for (const [identity, members] of byIdentity) {
    const counts = new Map();
    for (const m of members) if (m.personId) counts.set(m.personId, (counts.get(m.personId) ?? 0) + 1);
    const largest = Math.max(0, ...counts.values());
    perIdentity.push({ identity, faces: members.length, people: counts.size, recall: largest / members.length });
  }
  const known = perIdentity.filter((i) => !isStranger(i.identity) && i.faces >= 2);
  const strangers = perIdentity.filter((i) => isStranger(i.identity) && i.faces >= 2);
  return {
    purity: faces.length ? pure / faces.length : 0,
    recall: mean(known.map((i) => i.recall)),
    strangerRecall: mean(strangers.map((i) => i.recall)),
    perIdentity,
    majority,
    people: byPerson.size,
  };
}

async function scorePart(app, clock, part, photos, onProgress) {
  const client = new Client(app);
  await client.request('POST', '/user-service/create', { email: `faces-${randomUUID()}@example.com`, password: 'evaluation' });
  const fileIds = await uploadPart(client, photos);
  onProgress(`${part}: uploaded ${photos.length} photos`);
  const seconds = await waitForFaces(app, client, clock, onProgress);
  onProgress(`${part}: faces found and grouped in ${seconds.toFixed(1)} s`);

  const faces = [];
  let expected = 0;
  let expectedKnown = 0;
  let matchedKnown = 0;
  let matched = 0;
  let extra = 0;
  const missed = [];
  for (const photo of photos) {
    const { faces: found } = await client.request('GET', `/people-service/files/${fileIds.get(photo.path)}/faces`);
    const match = matchFaces(photo.faces, found);
    expected += photo.faces.length;
    matched += match.matched;
    for (const m of match.missed)
      if (!isStranger(m.identity)) missed.push({ photo: photo.path, change: photo.change, identity: m.identity });
    const known = photo.faces.filter((f) => !isStranger(f.identity)).length;
    expectedKnown += known;
    found.forEach((face, i) => {
      const identity = match.identityOfFound[i];
      if (identity === null) extra++;
      else {
        faces.push({ ...face, identity, photo: photo.path });
        if (!isStranger(identity)) matchedKnown++;
      }
    });
  }
  const clusters = scoreClusters(faces);

  // Named the way a person would name them: each person after whom most of its faces show.
  const { people } = await client.request('GET', '/people-service/people');
  const { people: hidden } = await client.request('GET', '/people-service/people?hidden=true');
  for (const person of [...people, ...hidden]) {
    const identity = clusters.majority.get(person.id);
    if (!identity || isStranger(identity)) continue;
    await client.request('PATCH', `/people-service/people/${person.id}`, { name: identityOf(identity).name });
  }

  const pathOf = new Map([...fileIds].map(([p, id]) => [id, p]));
  const photoByPath = new Map(photos.map((p) => [p.path, p]));
  const shows = (photoPath, identity, scene) => {
    const photo = photoByPath.get(photoPath);
    if (!photo) return false;
    return (identity === null || photo.faces.some((f) => f.identity === identity)) && (scene === null || photo.scene === scene);
  };
  const queries = [];
  const present = new Set(photos.flatMap((p) => p.faces.map((f) => f.identity)));
  for (const who of identities.filter((i) => i.part === part && present.has(i.id))) {
    const theirScenes = new Set(photos.filter((p) => p.faces.some((f) => f.identity === who.id) && p.scene).map((p) => p.scene));
    queries.push({ identity: who.id, scene: null, query: who.name });
    for (const scene of theirScenes) queries.push({ identity: who.id, scene, query: `${who.name} ${scenes[scene].words}` });
  }
  // The scenes alone: tells a scene the search does not see from a person it does not find.
  const partScenes = new Set(photos.filter((p) => p.scene).map((p) => p.scene));
  for (const scene of partScenes)
    queries.push({ identity: null, scene, query: scenes[scene].words.replace(/^(at|on|in|with|playing) (the |a )?/, '') });
  for (const q of queries) {
    const answer = await client.request('POST', '/file-service/semantic-search', { query: q.query, userId: 'ignored' });
    const ranked = answer.files.map((f) => pathOf.get(f._id) ?? f.filename);
    q.top = ranked.slice(0, TOP);
    q.hit = q.top.some((p) => shows(p, q.identity, q.scene));
    // Of the top answers, how many are right, out of as many as there are right photos.
    const right = photos.filter((p) => shows(p.path, q.identity, q.scene)).length;
    q.precision = right ? q.top.filter((p) => shows(p, q.identity, q.scene)).length / Math.min(TOP, right) : 0;
  }
  // Nobody in the account is called this: the answer should be empty, not someone else's face.
  const stranger = await client.request('POST', '/file-service/semantic-search', { query: UNKNOWN_NAME, userId: 'ignored' });
  const byName = queries.filter((q) => q.identity !== null && q.scene === null);
  const withScene = queries.filter((q) => q.identity !== null && q.scene !== null);
  const sceneOnly = queries.filter((q) => q.identity === null);
  return {
    part,
    photos: photos.length,
    seconds,
    expected,
    matched,
    expectedKnown,
    matchedKnown,
    extra,
    missed,
    people: clusters.people,
    identities: new Set(faces.map((f) => f.identity)).size,
    purity: clusters.purity,
    recall: clusters.recall,
    strangerRecall: clusters.strangerRecall,
    perIdentity: clusters.perIdentity,
    nameHitRate: mean(byName.map((q) => (q.hit ? 1 : 0))),
    namePrecision: mean(byName.map((q) => q.precision)),
    unknownNameAnswers: stranger.files.length,
    sceneHitRate: mean(withScene.map((q) => (q.hit ? 1 : 0))),
    sceneOnlyHitRate: mean(sceneOnly.map((q) => (q.hit ? 1 : 0))),
    queries,
  };
}

/** Runs every part of the rendered manifest on `app` (a built server using `clock`). */
export async function runFaceEvaluation(app, clock, manifest, { parts = PARTS, onProgress = () => {} } = {}) {
  const results = [];
  for (const part of parts) {
    results.push(
      await scorePart(
        app,
        clock,
        part,
        manifest.photos.filter((p) => p.part === part),
        onProgress,
      ),
    );
  }
  return results;
}

const count = (r, which) => r.queries.filter(which).length;
const pct = (x) => `${(x * 100).toFixed(1)} %`;

/** Per-identity and per-query lines for the tuning part; the held-out part in figures only. */
export function reportFaces(results) {
  const lines = [];
  for (const r of results) {
    lines.push('', `=== ${r.part === 'tuning' ? 'tuning part' : 'held-out part'} ===`);
    if (r.part === 'tuning') {
      for (const i of r.perIdentity.filter((x) => !isStranger(x.identity))) {
        lines.push(`  ${i.identity.padEnd(16)} ${String(i.faces).padStart(3)} faces in ${i.people} people, largest ${pct(i.recall)}`);
      }
      for (const m of r.missed) lines.push(`  not found: ${m.identity} in ${m.photo} (${m.change})`);
      for (const q of r.queries) {
        lines.push(`  ${q.hit ? 'ok  ' : 'MISS'} "${q.query}"${q.hit ? '' : `  got ${q.top.slice(0, 3).join(', ') || '(nothing)'}`}`);
      }
    }
    lines.push(
      `  ${r.photos} photos, faces found and grouped in ${r.seconds.toFixed(1)} s (${((r.seconds * 1000) / r.photos).toFixed(0)} ms a photo, all background jobs)`,
      `  detection: ${r.matched}/${r.expected} faces (${pct(r.matched / r.expected)}); known people ${r.matchedKnown}/${r.expectedKnown} (${pct(r.matchedKnown / r.expectedKnown)}); ${r.extra} found where no face was expected`,
      `  clustering: ${r.people} people for ${r.identities} identities; purity ${pct(r.purity)}; recall ${pct(r.recall)} (known people), ${pct(r.strangerRecall)} (strangers)`,
      `  search by name: precision@${TOP} ${pct(r.namePrecision)}; "${UNKNOWN_NAME}" (nobody) answered with ${r.unknownNameAnswers} files`,
      `  search, a right photo in the top ${TOP}: name ${pct(r.nameHitRate)} of ${count(r, (q) => q.identity && !q.scene)}; name and scene ${pct(r.sceneHitRate)} of ${count(r, (q) => q.identity && q.scene)}; the scene alone ${pct(r.sceneOnlyHitRate)} of ${count(r, (q) => !q.identity)}`,
    );
  }
  return lines.join('\n');
}
