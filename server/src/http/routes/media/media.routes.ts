import type { FastifyInstance, FastifyReply, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import { z } from 'zod';
import type { MediaService, StoredAsset } from '../../../services/media/media.service.js';
import type { LivePhotoService } from '../../../services/media/live-photo.service.js';
import type { StreamTokenService } from '../../../services/downloads/stream-token.service.js';
import type { ItemAccess } from '../../../services/sharing/item-access.js';
import { NotFoundError } from '../../../domain/errors.js';
import { readAudioTags } from '../../../media/audio-tags.js';
import { MediaUnprocessableError } from '../../../media/errors.js';
import { authOf } from '../../plugins/auth.js';
import { sendStoredFile } from '../../send-stored-file.js';
import { parseInput } from '../../validation.js';
import { binaryAnswer, messageAnswer, signedIn } from '../../api-schemas.js';

export interface MediaRoutesDeps {
  media: MediaService;
  streamTokens: StreamTokenService;
  requireAuth: preHandlerAsyncHookHandler;
  secureCookies: boolean;
  /** Files shared with the caller show and play like their own. */
  access: ItemAccess;
  /** Motion photos' clips. */
  livePhotos: Pick<LivePhotoService, 'clip'>;
}

export const STREAM_COOKIE = 'stream-video-token';
/** The stream credential is sent with video requests only. */
const STREAM_PATH = '/file-service/stream-video';
/**
 * A motion photo's clip plays in a <video> too: the same credential, under a cookie of its own for
 * that path (a cookie of the same name on another path would be one cookie to some clients).
 */
export const MOTION_COOKIE = 'motion-video-token';
const MOTION_PATH = '/file-service/motion';

const idParams = z.object({ id: z.string().min(1).max(64) });
const videoInfoAnswer = z.object({ state: z.enum(['original', 'preparing', 'ready', 'failed', 'off']) });
const audioInfo = z.object({
  title: z.string().nullable(),
  artist: z.string().nullable(),
  album: z.string().nullable(),
  durationSeconds: z.number().nullable(),
  hasCover: z.boolean(),
});
const thumbnailParams = z.object({ thumbnailID: z.string().min(1).max(64) });

function sendAsset(request: FastifyRequest, reply: FastifyReply, asset: StoredAsset, cacheControl?: string): Promise<FastifyReply> {
  return sendStoredFile(request, reply, asset, (range) => asset.open(range), { disposition: 'inline', cacheControl });
}

export function mediaRoutes(app: FastifyInstance, deps: MediaRoutesDeps): void {
  const { media, streamTokens, requireAuth, access } = deps;

  /** The caller's own thumbnail, else one of a file shared with them (looked up only when it is not their own). */
  const thumbnailOf = async (callerId: string, thumbnailId: string): Promise<StoredAsset> => {
    try {
      return await media.thumbnail(callerId, thumbnailId);
    } catch (err) {
      if (!(err instanceof NotFoundError)) throw err;
      const reach = await access.thumbnail(callerId, thumbnailId);
      if (reach.ownerId === callerId) throw err;
      return media.thumbnail(reach.ownerId, thumbnailId);
    }
  };
  const auth = { preHandler: requireAuth };
  const cookieBase = { httpOnly: true, sameSite: 'strict', secure: deps.secureCookies, path: STREAM_PATH } as const;

  const tags = ['media'];
  const image = { 200: binaryAnswer('The image', 'image/*'), 206: binaryAnswer('The requested range', 'image/*') };
  const notFound = ['VALIDATION_FAILED', 'FILE_NOT_FOUND', 'RANGE_NOT_SATISFIABLE'] as const;
  app.get(
    '/file-service/thumbnail/:thumbnailID',
    { ...auth, schema: signedIn({ summary: 'A thumbnail, by its id', tags, params: thumbnailParams, response: image, errors: notFound }) },
    async (request, reply) => {
      const { thumbnailID } = parseInput(thumbnailParams, request.params);
      // A thumbnail id names one immutable image.
      return sendAsset(request, reply, await thumbnailOf(authOf(request).accountId, thumbnailID), 'private, max-age=31536000, immutable');
    },
  );

  app.get(
    '/file-service/full-thumbnail/:id',
    {
      ...auth,
      schema: signedIn({ summary: 'An image file as the browser can show it', tags, params: idParams, response: image, errors: notFound }),
    },
    async (request, reply) => {
      const { id } = parseInput(idParams, request.params);
      const reach = await access.file(authOf(request).accountId, id, 'read');
      return sendAsset(request, reply, await media.fullImage(reach.ownerId, id));
    },
  );

  app.get(
    '/file-service/audio-info/:id',
    {
      ...auth,
      schema: signedIn({
        summary: "An audio file's title, artist, album, duration and whether it has cover art",
        description: 'Read from the tags of the file; each is null when the file does not say (or its tags cannot be read).',
        tags,
        params: idParams,
        response: { 200: audioInfo },
        errors: ['VALIDATION_FAILED', 'FILE_NOT_FOUND'],
      }),
    },
    async (request) => {
      const { id } = parseInput(idParams, request.params);
      const reach = await access.file(authOf(request).accountId, id, 'read');
      const asset = await media.audio(reach.ownerId, id);
      try {
        const found = await readAudioTags(asset.size, asset.contentType, (range) => asset.open(range));
        const { title, artist, album, durationSeconds } = found;
        return { title, artist, album, durationSeconds, hasCover: found.cover !== null };
      } catch (err) {
        // Tags that cannot be read leave the file playable, just unnamed.
        if (!(err instanceof MediaUnprocessableError)) throw err;
        return { title: null, artist: null, album: null, durationSeconds: null, hasCover: false };
      }
    },
  );

  app.get(
    '/file-service/download/access-token-stream-video',
    { ...auth, schema: signedIn({ summary: 'Get the cookie that lets a <video> element stream', tags, response: { 200: messageAnswer } }) },
    async (request, reply) => {
      const issued = await streamTokens.issue(authOf(request));
      void reply.setCookie(STREAM_COOKIE, issued.token, { ...cookieBase, maxAge: issued.maxAgeSeconds });
      void reply.setCookie(MOTION_COOKIE, issued.token, { ...cookieBase, path: MOTION_PATH, maxAge: issued.maxAgeSeconds });
      return { message: 'Stream token issued' };
    },
  );

  app.delete(
    '/file-service/remove-stream-video-token',
    { schema: { summary: 'Clear the video stream cookie', tags, response: { 200: messageAnswer } } },
    async (_request, reply) => {
      void reply.clearCookie(STREAM_COOKIE, cookieBase);
      void reply.clearCookie(MOTION_COOKIE, { ...cookieBase, path: MOTION_PATH });
      return { message: 'Stream token removed' };
    },
  );

  // A <video> element cannot refresh an expired access token, so its own credential also counts.
  const cookieAuth = (name: string): preHandlerAsyncHookHandler =>
    async function (request, reply) {
      const claims = await streamTokens.verify(request.cookies[name]);
      if (claims) request.auth = claims;
      else await requireAuth.call(this, request, reply);
    };
  const streamAuth = cookieAuth(STREAM_COOKIE);

  const streamSchema = signedIn({
    summary: 'Stream a video',
    description: 'Authenticated by the session or by the stream cookie; supports `Range`.',
    tags,
    params: idParams,
    response: { 200: binaryAnswer('The video', 'video/*'), 206: binaryAnswer('The requested range', 'video/*') },
    errors: notFound,
  });
  // The original when it plays in browsers, else its playable rendition once made (H.264/AAC MP4).
  app.get('/file-service/stream-video/:id', { preHandler: streamAuth, schema: streamSchema }, async (request, reply) => {
    const { id } = parseInput(idParams, request.params);
    const reach = await access.file(authOf(request).accountId, id, 'read');
    return sendAsset(request, reply, await media.video(reach.ownerId, id));
  });

  app.get(
    '/file-service/video-info/:id',
    {
      ...auth,
      schema: signedIn({
        summary: 'Whether a video plays in the browser',
        description:
          '`original`: it plays as stored. `preparing`: a playable copy (H.264/AAC in MP4) is being made; ask again. ' +
          '`ready`: `stream-video` serves that copy. `failed`: the video cannot be converted. ' +
          '`off`: no copy will be made (turned off, or ffmpeg missing); the original may or may not play. ' +
          '`download` always gives the original.',
        tags,
        params: idParams,
        response: { 200: videoInfoAnswer },
        errors: ['VALIDATION_FAILED', 'FILE_NOT_FOUND'],
      }),
    },
    async (request, reply) => {
      const { id } = parseInput(idParams, request.params);
      const reach = await access.file(authOf(request).accountId, id, 'read');
      const state = await media.videoState(reach.ownerId, id);
      // The state moves on by itself (a copy being made): never cached.
      void reply.header('cache-control', 'no-store');
      return { state };
    },
  );

  const motionSchema = signedIn({
    summary: "Stream a motion photo's video",
    description:
      'The short video an Android motion photo carries after its still, stored apart when the photo was read. ' +
      'Authenticated by the session or by the stream cookie; supports `Range`. The photo itself downloads unchanged.',
    tags,
    params: idParams,
    response: { 200: binaryAnswer('The clip', 'video/mp4'), 206: binaryAnswer('The requested range', 'video/mp4') },
    errors: notFound,
  });
  app.get(`${MOTION_PATH}/:id`, { preHandler: cookieAuth(MOTION_COOKIE), schema: motionSchema }, async (request, reply) => {
    const { id } = parseInput(idParams, request.params);
    const reach = await access.file(authOf(request).accountId, id, 'read');
    return sendAsset(request, reply, await deps.livePhotos.clip(reach.ownerId, id));
  });
}
