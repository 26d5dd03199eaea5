import { peopleSettingsRequest, personFilesQuery, personListQuery, personMergeRequest, personUpdateRequest } from '@nimbus/common';
import type { FastifyInstance, preHandlerAsyncHookHandler } from 'fastify';
import type { PeopleService } from '../../../people/people.service.js';
import type { LivePhotoService } from '../../../services/media/live-photo.service.js';
import { binaryAnswer, messageAnswer, signedIn } from '../../api-schemas.js';
import { authOf } from '../../plugins/auth.js';
import { parseInput } from '../../validation.js';
import { presentFile, withMotion } from '../files/files.presenter.js';
import {
  faceListDto,
  faceParams,
  fileParams,
  peopleSettingsDto,
  personDto,
  personFaceParams,
  personFilesDto,
  personListDto,
  personParams,
} from './people.schemas.js';

export interface PeopleRoutesDeps {
  people: PeopleService;
  /** The motion of a person's photos, as the gallery shows it. */
  livePhotos: Pick<LivePhotoService, 'motionOf'>;
  requireAuth: preHandlerAsyncHookHandler;
}

/**
 * People in the caller's own photos. Nothing here reaches another account's data, and nothing is
 * reachable through a share: another account's person, face or file answers 404.
 */
export function peopleRoutes(app: FastifyInstance, deps: PeopleRoutesDeps): void {
  const { people } = deps;
  const auth = { preHandler: deps.requireAuth };
  const tags = ['people'];
  const person = { 200: personDto };

  app.get(
    '/people-service/settings',
    {
      ...auth,
      schema: signedIn({
        summary: 'Whether people in photos are on, and how far the scan of the photos is',
        tags,
        response: { 200: peopleSettingsDto },
      }),
    },
    async (request) => people.settings(authOf(request).accountId),
  );

  app.put(
    '/people-service/settings',
    {
      ...auth,
      schema: signedIn({
        summary: 'Turn people in photos on or off',
        description:
          "Off deletes every face, person and scan of the account before answering; on scans the account's photos in the background.",
        tags,
        body: peopleSettingsRequest,
        response: { 200: peopleSettingsDto },
        errors: ['VALIDATION_FAILED'],
      }),
    },
    async (request) => {
      const { enabled } = parseInput(peopleSettingsRequest, request.body);
      return people.setEnabled(authOf(request).accountId, enabled);
    },
  );

  app.get(
    '/people-service/people',
    {
      ...auth,
      schema: signedIn({
        summary: "The account's people, most photos first",
        description: 'The visible ones, or with `hidden=true` the hidden ones. Empty while people are off.',
        tags,
        querystring: personListQuery,
        response: { 200: personListDto },
        errors: ['VALIDATION_FAILED'],
      }),
    },
    async (request) => {
      const { hidden } = parseInput(personListQuery, request.query);
      return { people: await people.list(authOf(request).accountId, hidden ?? false) };
    },
  );

  app.get(
    '/people-service/people/:personId',
    {
      ...auth,
      schema: signedIn({
        summary: 'A person',
        tags,
        params: personParams,
        response: person,
        errors: ['VALIDATION_FAILED', 'PERSON_NOT_FOUND'],
      }),
    },
    async (request) => {
      const { personId } = parseInput(personParams, request.params);
      return people.get(authOf(request).accountId, personId);
    },
  );

  app.patch(
    '/people-service/people/:personId',
    {
      ...auth,
      schema: signedIn({
        summary: 'Name, rename or hide a person',
        description:
          'A name is trimmed, 1–100 characters without control characters; null clears it. Hidden people stay out of the list and of search.',
        tags,
        params: personParams,
        body: personUpdateRequest,
        response: person,
        errors: ['VALIDATION_FAILED', 'PERSON_NOT_FOUND', 'PEOPLE_OFF'],
      }),
    },
    async (request) => {
      const { personId } = parseInput(personParams, request.params);
      return people.update(authOf(request).accountId, personId, parseInput(personUpdateRequest, request.body));
    },
  );

  app.post(
    '/people-service/people/:personId/merge',
    {
      ...auth,
      schema: signedIn({
        summary: 'Merge another person into this one',
        description:
          "The other person's faces move to this one, which keeps its name (or takes the other's when it has none); the other is deleted.",
        tags,
        params: personParams,
        body: personMergeRequest,
        response: person,
        errors: ['VALIDATION_FAILED', 'PERSON_NOT_FOUND', 'PEOPLE_OFF'],
      }),
    },
    async (request) => {
      const { personId } = parseInput(personParams, request.params);
      const body = parseInput(personMergeRequest, request.body);
      return people.merge(authOf(request).accountId, personId, body.personId);
    },
  );

  app.get(
    '/people-service/people/:personId/files',
    {
      ...auth,
      schema: signedIn({
        summary: "A person's photos, newest first, a page at a time",
        tags,
        params: personParams,
        querystring: personFilesQuery,
        response: { 200: personFilesDto },
        errors: ['VALIDATION_FAILED', 'PERSON_NOT_FOUND'],
      }),
    },
    async (request) => {
      const callerId = authOf(request).accountId;
      const { personId } = parseInput(personParams, request.params);
      const { cursor, limit } = parseInput(personFilesQuery, request.query);
      const page = await people.files(callerId, personId, limit, cursor);
      const motion = await deps.livePhotos.motionOf(
        callerId,
        page.rows.filter((r) => r.mediaKind === 'photo').map((r) => r.id),
      );
      return { files: page.rows.map((row) => withMotion(presentFile(row), motion.get(row.id))), nextCursor: page.nextCursor };
    },
  );

  app.get(
    '/people-service/people/:personId/faces',
    {
      ...auth,
      schema: signedIn({
        summary: "A person's faces, newest photo first",
        tags,
        params: personParams,
        response: { 200: faceListDto },
        errors: ['VALIDATION_FAILED', 'PERSON_NOT_FOUND'],
      }),
    },
    async (request) => {
      const { personId } = parseInput(personParams, request.params);
      return { faces: await people.faces(authOf(request).accountId, personId) };
    },
  );

  app.delete(
    '/people-service/people/:personId/faces/:faceId',
    {
      ...auth,
      schema: signedIn({
        summary: 'Remove a wrong face from a person',
        description: 'The face is never put back with this person; a person left without faces disappears.',
        tags,
        params: personFaceParams,
        response: { 200: messageAnswer },
        errors: ['VALIDATION_FAILED', 'PERSON_NOT_FOUND', 'FACE_NOT_FOUND', 'PEOPLE_OFF'],
      }),
    },
    async (request) => {
      const { personId, faceId } = parseInput(personFaceParams, request.params);
      await people.removeFace(authOf(request).accountId, personId, faceId);
      return { message: 'Face removed' };
    },
  );

  app.get(
    '/people-service/faces/:faceId/crop',
    {
      ...auth,
      schema: signedIn({
        summary: 'A small JPEG of a face',
        description: 'Supports conditional requests (`ETag`, 304): a face id names one unchanging picture.',
        tags,
        params: faceParams,
        response: { 200: binaryAnswer('The face', 'image/jpeg') },
        errors: ['VALIDATION_FAILED', 'FACE_NOT_FOUND'],
      }),
    },
    async (request, reply) => {
      const { faceId } = parseInput(faceParams, request.params);
      const crop = await people.crop(authOf(request).accountId, faceId);
      const etag = `"${faceId}"`;
      void reply.header('cache-control', 'private, max-age=86400').header('etag', etag);
      if (request.headers['if-none-match'] === etag) return reply.status(304).send();
      return reply.type('image/jpeg').send(crop);
    },
  );

  app.get(
    '/people-service/files/:fileId/faces',
    {
      ...auth,
      schema: signedIn({
        summary: 'The faces found in one of the caller’s photos',
        description: 'Empty while people are off or before the photo was scanned.',
        tags,
        params: fileParams,
        response: { 200: faceListDto },
        errors: ['VALIDATION_FAILED', 'FILE_NOT_FOUND'],
      }),
    },
    async (request) => {
      const { fileId } = parseInput(fileParams, request.params);
      return { faces: await people.fileFaces(authOf(request).accountId, fileId) };
    },
  );
}
