/** What the People pages and the setting say; their wording is part of the product. */
export const PEOPLE_MESSAGES = {
  title: 'People',
  addName: 'Add a name',
  off: 'People in photos is off',
  offHint: 'Turn it on in Settings to find the people in your photos.',
  openSettings: 'Open Settings',
  empty: 'No people yet. Faces in your photos appear here after they are processed.',
  showHidden: 'Show hidden people',
  loadError: 'People could not be loaded',
  personGone: 'This person is not here any more',
  personLoadError: 'This person could not be loaded',
  nameSaved: 'Name saved',
  nameNotSaved: 'The name could not be saved',
  merged: 'People merged',
  notMerged: 'The people could not be merged',
  faceRemoved: 'Face removed',
  faceNotRemoved: 'The face could not be removed',
  notChanged: 'The person could not be changed',
  hide: 'Hide person',
  show: 'Show person',
  hidden: 'Hidden from People',
  merge: 'Merge with…',
  noPhotos: 'No photos of this person',
  settingTitle: 'People in photos',
  settingText:
    'Finds the faces in your photos and groups them by person, so you can name people and search for them by name. Only you see them, and shared links never show them.',
  turnOffTitle: 'Turn off people?',
  turnOffText: 'The faces found in your photos and the names you gave will be deleted.',
  turnOff: 'Turn off',
  settingError: 'The setting could not be changed',
  settingLoadError: 'Could not load the people setting',
} as const;

const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

export const photoCount = (count: number) => plural(count, 'photo', 'photos');

/** "12 photos processed, 3 waiting" */
export const scanProgress = (scanned: number, pending: number) => `${plural(scanned, 'photo', 'photos')} processed, ${pending} waiting`;

export const personLabel = (name: string | null) => name ?? PEOPLE_MESSAGES.addName;

/** The tile action that takes a wrongly grouped face away from a person. */
export const removeFaceLabel = (name: string | null) => (name ? `Not ${name}` : 'Remove from this person');
