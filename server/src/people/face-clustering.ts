import { newId } from '../security/ids.js';
import type { Clock } from '../services/clock.js';
import type { ClusterFace, PeopleRepository } from './people.repository.js';

/**
 * Two faces nearer than this (Euclidean distance of their descriptors) are taken for one person.
 * face-api's own examples use 0.6. Measured on the photos of server/test/people only: the
 * astronaut and her EXIF-rotated, cropped, tilted, mirrored and half-size copies are 0.10–0.33
 * apart, while she, the cameraman and opencv's football player are 0.73–0.89 from each other;
 * 0.5 keeps a margin on both sides.
 */
export const SAME_PERSON_DISTANCE = 0.5;

export function distance(a: Float32Array, b: Float32Array): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) {
    const d = a[i]! - b[i]!;
    sum += d * d;
  }
  return Math.sqrt(sum);
}

/**
 * The person whose nearest face is nearest to `face`, when near enough; never one the face was
 * removed from, nor one in `taken` (someone already in the same photo).
 */
export function nearestPerson(face: ClusterFace, known: readonly ClusterFace[], taken: ReadonlySet<string>): string | null {
  let best: string | null = null;
  let bestDistance = SAME_PERSON_DISTANCE;
  for (const other of known) {
    if (other.personId === null || other.personId === face.rejectedPersonId || taken.has(other.personId)) continue;
    const d = distance(face.descriptor, other.descriptor);
    if (d < bestDistance) {
      bestDistance = d;
      best = other.personId;
    }
  }
  return best;
}

/**
 * Incremental grouping of one account's faces: each new face joins the person of its nearest
 * face, else starts a person of its own. One pass over the account's faces per new face, which
 * stays cheap for thousands of faces (128 floats each).
 */
export class FaceClustering {
  constructor(
    private readonly repo: PeopleRepository,
    private readonly clock: Clock,
  ) {}

  /** Groups the faces of one photo that are in no person yet. */
  async clusterFile(ownerId: string, fileId: string): Promise<void> {
    const fresh = await this.repo.unassignedFaces(fileId);
    if (fresh.length === 0) return;
    const known = await this.repo.clusterFaces(ownerId);
    const taken = new Set(known.filter((f) => f.fileId === fileId && f.personId !== null).map((f) => f.personId!));
    for (const face of fresh) {
      let personId = nearestPerson(face, known, taken);
      if (personId === null) {
        personId = newId();
        await this.repo.createPerson(ownerId, personId, this.clock.now());
      }
      await this.repo.assign(face.id, personId);
      taken.add(personId);
      known.push({ ...face, personId });
    }
  }
}
