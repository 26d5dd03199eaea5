// The people evaluation: real photographs of faces from Debian packages, and copies of them changed
// the way phones, messengers and editors change photos, put on the drive under camera-style names.
// `render.mjs` downloads the packages and renders the photos into .real-media/faces/; `harness.mjs`
// uploads them and scores the people the server finds. Who each face belongs to comes from this
// file, never from the server.

/** Debian packages the photographs come from, and the folder each one installs its files under. */
export const facePackages = {
  dlib: { name: 'libdlib19.1', root: 'usr/share/doc/libdlib19.1/examples' },
  skimage: { name: 'python3-skimage', root: 'usr/lib/python3/dist-packages/skimage/data' },
  facedetect: { name: 'facedetect', root: 'usr/share/doc/facedetect/examples' },
  opencv: { name: 'opencv-doc', root: 'usr/share/doc/opencv-doc/examples/data' },
  mate: { name: 'mate-backgrounds', root: 'usr/share/backgrounds/mate' },
};

/**
 * Whole identities go to one part. The held-out part was written down before the clustering was
 * run on any of it, and no threshold may be tuned on it; the tuning part may be.
 */
export const PARTS = ['tuning', 'heldOut'];

/**
 * The people. `name` is what the account calls them (and what search is asked for); `shows` says
 * where their photographs come from.
 */
export const identities = [
  // dlib's face-recognition example ships eleven real photographs each of five men called John
  // (150×150 aligned crops from the "Labeled Faces in the Wild" collection).
  { id: 'john-salley', name: 'John Salley', part: 'tuning', shows: 'dlib examples/johns/John_Salley: a basketball player, 11 photos' },
  { id: 'john-savage', name: 'John Savage', part: 'tuning', shows: 'dlib examples/johns/John_Savage: an actor, 11 photos' },
  {
    id: 'john-schneider',
    name: 'John Schneider',
    part: 'tuning',
    shows: 'dlib examples/johns/John_Schneider: an actor, 11 photos',
  },
  { id: 'john-shimkus', name: 'John Shimkus', part: 'heldOut', shows: 'dlib examples/johns/John_Shimkus: a politician, 11 photos' },
  { id: 'john-simm', name: 'John Simm', part: 'heldOut', shows: 'dlib examples/johns/John_Simm: an actor, 11 photos' },
  // dlib's face-detector example "bald_guys.jpg" is a collage of 23 different photographs of four
  // bald actors, who look alike on purpose: each tile is one photo.
  { id: 'dwayne-johnson', name: 'Dwayne Johnson', part: 'tuning', shows: 'dlib examples/faces/bald_guys.jpg: 6 tiles' },
  { id: 'vin-diesel', name: 'Vin Diesel', part: 'tuning', shows: 'dlib examples/faces/bald_guys.jpg: 6 tiles' },
  { id: 'bruce-willis', name: 'Bruce Willis', part: 'heldOut', shows: 'dlib examples/faces/bald_guys.jpg: 6 tiles' },
  { id: 'jason-statham', name: 'Jason Statham', part: 'heldOut', shows: 'dlib examples/faces/bald_guys.jpg: 5 tiles' },
  // One real photograph each; their other photos are changed copies of it.
  {
    id: 'eileen-collins',
    name: 'Eileen Collins',
    part: 'tuning',
    shows: 'scikit-image astronaut.png: the astronaut in an orange space suit beside a flag',
  },
  {
    id: 'cameraman',
    name: 'Walter',
    part: 'tuning',
    shows: 'scikit-image camera.png: black and white, a man (name unknown) filming with a camera on a tripod',
  },
  {
    id: 'lionel-messi',
    name: 'Lionel Messi',
    part: 'tuning',
    shows: 'opencv-doc messi5.jpg: the footballer kicking a ball, a stadium crowd behind him',
  },
  {
    id: 'grace-hopper',
    name: 'Grace Hopper',
    part: 'heldOut',
    shows: 'facedetect grace_hopper_512x512.jpg: the admiral in uniform before a flag',
  },
  {
    id: 'tom-cruise',
    name: 'Tom Cruise',
    part: 'heldOut',
    shows: 'dlib examples/faces/Tom_Cruise_avp_2014_4.jpg: the actor smiling, close up',
  },
];

/**
 * Scenes: real photographs the portraits are put in front of (a face cut out and pasted on a
 * beach), and the words a person would use for them in a search.
 */
export const scenes = {
  beach: { pkg: 'mate', file: 'nature/Dune.jpg', words: 'at the beach', shows: 'dune grass with the sea behind' },
  grass: { pkg: 'mate', file: 'nature/GreenMeadow.jpg', words: 'on the grass', shows: 'blades of green grass' },
  flowers: { pkg: 'mate', file: 'nature/Garden.jpg', words: 'with flowers', shows: 'a red and yellow marigold flower' },
  wood: { pkg: 'mate', file: 'nature/Wood.jpg', words: 'on wooden planks', shows: 'weathered wooden planks' },
  // The scenes of the single photographs themselves.
  spacesuit: { words: 'in a space suit' },
  camera: { words: 'with a camera' },
  football: { words: 'playing football' },
  flag: { words: 'with a flag' },
};
const BACKDROPS = ['beach', 'grass', 'flowers', 'wood'];

/** Each John's eleven photographs (dlib examples/johns/<name>/<file>.jpg). */
const JOHNS = {
  'john-salley': [
    '000179_02159509',
    '000183_02159543',
    '000186_02159346',
    '000189_02159361',
    '000190_02159501',
    '000192_02159531',
    '000194_02159572',
    '000197_02159322',
    '000197_02159525',
    '000198_02159470',
    '000200_02159354',
  ],
  'john-savage': [
    '000264_01099001',
    '000274_01099061',
    '000277_01099000',
    '000289_01099139',
    '000290_01099067',
    '000290_01099090',
    '000291_01099023',
    '000291_01099214',
    '000293_01099081',
    '000296_01099007',
    '000299_01099008',
  ],
  'john-schneider': [
    '000288_00925786',
    '000302_00925785',
    '000307_00925823',
    '000325_00925954',
    '000326_00925765',
    '000326_00926089',
    '000326_00926128',
    '000326_00926139',
    '000329_00925859',
    '000329_00925963',
    '000331_00926012',
  ],
  'john-shimkus': [
    '000373_03228153',
    '000375_03227651',
    '000376_02340068',
    '000378_02340151',
    '000378_03227610',
    '000383_03227939',
    '000385_03227766',
    '000388_03227773',
    '000390_03227666',
    '000394_02340150',
    '000396_03227722',
  ],
  'john-simm': [
    '000288_00470387',
    '000297_00470170',
    '000300_00470148',
    '000304_00470122',
    '000305_00470162',
    '000305_00470717',
    '000306_00470222',
    '000306_00470223',
    '000309_00470287',
    '000310_00470421',
    '000310_00470511',
  ],
};

const JOHN_DIRS = {
  'john-salley': 'John_Salley',
  'john-savage': 'John_Savage',
  'john-schneider': 'John_Schneider',
  'john-shimkus': 'John_Shimkus',
  'john-simm': 'John_Simm',
};

/** The bald_guys.jpg tiles: the face's box in the collage (pixels: left, top, width, height). */
const BALD_TILES = [
  ['dwayne-johnson', [1092, 1262, 154, 238]],
  ['bruce-willis', [1061, 693, 176, 264]],
  ['vin-diesel', [62, 331, 152, 235]],
  ['vin-diesel', [563, 36, 152, 256]],
  ['dwayne-johnson', [1799, 1283, 137, 197]],
  ['vin-diesel', [67, 16, 158, 248]],
  ['vin-diesel', [69, 1231, 162, 256]],
  ['bruce-willis', [779, 760, 161, 253]],
  ['vin-diesel', [567, 361, 159, 266]],
  ['jason-statham', [76, 651, 135, 217]],
  ['bruce-willis', [774, 1177, 159, 267]],
  ['jason-statham', [331, 409, 130, 192]],
  ['jason-statham', [884, 345, 146, 250]],
  ['dwayne-johnson', [1449, 1302, 122, 180]],
  ['dwayne-johnson', [1824, 407, 102, 155]],
  ['dwayne-johnson', [1461, 52, 263, 365]],
  ['jason-statham', [888, 51, 132, 238]],
  ['bruce-willis', [71, 952, 120, 182]],
  ['bruce-willis', [362, 1166, 197, 310]],
  ['bruce-willis', [1134, 1038, 108, 186]],
  ['vin-diesel', [324, 204, 115, 171]],
  ['jason-statham', [339, 19, 106, 161]],
  ['dwayne-johnson', [1647, 692, 89, 121]],
];

/**
 * Source portraits: a real photograph of one identity. `face` is the face's box in the file
 * (pixels), `cut` how much around it makes the portrait (in face sizes); a chip is all face.
 */
export const portraits = [
  ...Object.entries(JOHN_DIRS).flatMap(([identity, dir]) =>
    JOHNS[identity].map((name) => ({
      id: `${identity}/${name}`,
      identity,
      pkg: 'dlib',
      file: `johns/${dir}/${name}.jpg`,
      // The chips are aligned: the face fills the middle of the 150×150 square.
      face: [22, 12, 106, 128],
      cut: null,
    })),
  ),
  ...BALD_TILES.map(([identity, face], i) => ({
    id: `${identity}/bald_guys-${i}`,
    identity,
    pkg: 'dlib',
    file: 'faces/bald_guys.jpg',
    face,
    // Tight enough to leave the neighbouring tiles out.
    cut: 0.22,
  })),
];

/** The single photographs, each changed in every way below; `face` in pixels of the file. */
export const singlePhotos = [
  { identity: 'eileen-collins', pkg: 'skimage', file: 'astronaut.png', face: [181, 73, 83, 102], scene: 'spacesuit' },
  { identity: 'cameraman', pkg: 'skimage', file: 'camera.png', face: [202, 119, 53, 80], scene: 'camera' },
  { identity: 'lionel-messi', pkg: 'opencv', file: 'messi5.jpg', face: [225, 83, 32, 48], scene: 'football' },
  { identity: 'grace-hopper', pkg: 'facedetect', file: 'grace_hopper_512x512.jpg', face: [176, 103, 172, 205], scene: 'flag' },
  { identity: 'tom-cruise', pkg: 'dlib', file: 'faces/Tom_Cruise_avp_2014_4.jpg', face: [77, 198, 413, 517], scene: null },
];

/**
 * Real group photographs (PASCAL VOC, shipped with dlib's detector example with every face boxed
 * in training.xml / testing.xml): strangers, each in one photo and its mirrored copy. They test
 * several faces per photo and that strangers are not put with the known people.
 */
export const groupPhotos = [
  { file: 'faces/2007_007763.jpg', part: 'tuning', shows: 'seven relatives, old and young, in a living room' },
  { file: 'faces/2008_002079.jpg', part: 'tuning', shows: 'six people at a restaurant table' },
  { file: 'faces/2008_001009.jpg', part: 'tuning', shows: 'two women, one hugging the other from behind' },
  { file: 'faces/2008_001322.jpg', part: 'tuning', shows: 'two men and a woman in suits in a garden' },
  { file: 'faces/2008_002470.jpg', part: 'heldOut', shows: 'six people at a dinner table' },
  { file: 'faces/2008_002506.jpg', part: 'heldOut', shows: 'three young men, one pulling a face' },
  { file: 'faces/2008_004176.jpg', part: 'heldOut', shows: 'a shop: two Elvis impersonators and shop assistants' },
  { file: 'faces/2008_007676.jpg', part: 'heldOut', shows: 'seven young women at a table' },
  { file: 'faces/2009_004587.jpg', part: 'heldOut', shows: 'a man and a woman standing in a hall' },
];

/**
 * Ways a copy differs from its source, the way phones, messengers and editors change photos. Each
 * portrait gets one in turn, so every identity has most of them.
 */
export const CHANGES = ['none', 'mirror', 'thumbnail', 'tone', 'lowQuality', 'rotate', 'orientation', 'phone', 'dark'];
/** The single photographs get these, each one. */
const SINGLE_CHANGES = ['none', 'cropTight', 'cropWide', 'mirror', 'thumbnail', 'tone', 'lowQuality', 'rotate', 'orientation'];

const identityById = new Map(identities.map((i) => [i.id, i]));
export const identityOf = (id) => {
  const found = identityById.get(id);
  if (!found) throw new Error(`no identity ${id}`);
  return found;
};

/** Group pictures made by pasting two or three identities of one part side by side. */
function pastedGroups(part) {
  const people = identities.filter((i) => i.part === part).map((i) => i.id);
  const groups = [];
  // Neighbours in the list, in pairs and triples, so each identity is in two or three groups.
  for (let i = 0; i < people.length; i++) {
    const size = i % 2 === 0 ? 3 : 2;
    groups.push(Array.from({ length: size }, (_, k) => people[(i + k) % people.length]));
  }
  return groups;
}

/**
 * Every photo of the evaluation, in upload order: its path on the drive, its part, how it is made
 * and which identities are in it (the boxes come from rendering). Pure: the unit test reads it.
 */
export function planPhotos() {
  const photos = [];
  const counters = new Map();
  const nextName = (part, prefix) => {
    const n = (counters.get(`${part}${prefix}`) ?? 0) + 1;
    counters.set(`${part}${prefix}`, n);
    return n;
  };
  for (const part of PARTS) {
    const folder = part === 'tuning' ? 'Tuning' : 'HeldOut';
    const mine = portraits.filter((p) => identityOf(p.identity).part === part);
    mine.forEach((portrait, i) => {
      const n = nextName(part, 'IMG');
      photos.push({
        path: `${folder}/Phone/IMG_${String(2000 + n).padStart(4, '0')}.jpg`,
        part,
        kind: 'portrait',
        portrait: portrait.id,
        change: CHANGES[i % CHANGES.length],
        scene: BACKDROPS[i % BACKDROPS.length],
        // Where the portrait stands and how tall it is, in fractions of the picture.
        place: { x: [0.08, 0.5, 0.3, 0.62][i % 4], y: [0.12, 0.3, 0.2][i % 3], height: [0.55, 0.4, 0.65, 0.3][i % 4] },
        identities: [portrait.identity],
      });
    });
    for (const single of singlePhotos.filter((s) => identityOf(s.identity).part === part)) {
      for (const change of SINGLE_CHANGES) {
        const n = nextName(part, 'PXL');
        photos.push({
          path: `${folder}/Pictures/PXL_20240301_${String(n).padStart(4, '0')}.jpg`,
          part,
          kind: 'single',
          source: single.file,
          change,
          // A tight crop keeps nothing of the scene.
          scene: change === 'cropTight' ? null : single.scene,
          identities: [single.identity],
        });
      }
    }
    pastedGroups(part).forEach((group, i) => {
      const n = nextName(part, 'GRP');
      photos.push({
        path: `${folder}/Friends/IMG_${String(5000 + n).padStart(4, '0')}.jpg`,
        part,
        kind: 'pasted',
        // The portraits of the group's identities, a different one per group.
        portraits: group.map((identity) => {
          const theirs = portraits.filter((p) => p.identity === identity);
          const single = singlePhotos.find((s) => s.identity === identity);
          return theirs.length ? theirs[(i * 3 + 1) % theirs.length].id : `single:${single.file}`;
        }),
        change: ['none', 'phone', 'lowQuality', 'mirror'][i % 4],
        scene: BACKDROPS[(i + 1) % BACKDROPS.length],
        identities: group,
      });
    });
    for (const group of groupPhotos.filter((g) => g.part === part)) {
      for (const change of ['none', 'mirror']) {
        const n = nextName(part, 'DSC');
        photos.push({
          path: `${folder}/DCIM/DSC_${String(3000 + n).padStart(4, '0')}.jpg`,
          part,
          kind: 'group',
          source: group.file,
          change,
          scene: null,
          // Strangers: named after their photo and box when rendered.
          identities: [],
        });
      }
    }
  }
  return photos;
}

/** The strangers' identity: one per boxed face of a group photo, shared with its mirrored copy. */
export const strangerId = (file, index) => `stranger:${file.replace(/^faces\//, '')}#${index}`;
export const isStranger = (identity) => identity.startsWith('stranger:');

/** Packages the test subset may need: a few megabytes, no OpenCV documentation. */
const SUBSET_PACKAGES = new Set(['dlib', 'mate']);
const SUBSET_PER_IDENTITY = 4;

/**
 * The photos of the test suite's share (`server/test/search/face-evaluation.int.test.ts`): the
 * tuning part's photos made only from dlib's examples and MATE's backdrops, four per identity,
 * with the pasted groups of those identities and one real group photo.
 */
export function subsetPaths() {
  const fromSmallPackages = new Set(portraits.filter((p) => SUBSET_PACKAGES.has(p.pkg)).map((p) => p.identity));
  const taken = new Map();
  const paths = [];
  for (const photo of planPhotos().filter((p) => p.part === 'tuning')) {
    if (photo.kind === 'portrait' && fromSmallPackages.has(photo.identities[0])) {
      const n = taken.get(photo.identities[0]) ?? 0;
      if (n < SUBSET_PER_IDENTITY) paths.push(photo.path);
      taken.set(photo.identities[0], n + 1);
    } else if (photo.kind === 'pasted' && photo.portraits.every((id) => !id.startsWith('single:'))) paths.push(photo.path);
    else if (photo.kind === 'group' && photo.source === groupPhotos[0].file) paths.push(photo.path);
  }
  return new Set(paths);
}
