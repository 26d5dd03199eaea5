import type { S3Client } from '@aws-sdk/client-s3';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { S3BlobStore } from '../../src/storage/s3.store.js';
import { failingStream, MiB, startS3Server, streamOf, TEST_PART_SIZE, type S3Server } from './storage-fixtures.js';

describe('S3 store', () => {
  let server: S3Server;
  beforeAll(async () => {
    server = await startS3Server();
  });
  afterAll(async () => {
    await server?.stop();
  });

  function recordCommands(client: S3Client): string[] {
    const commands: string[] = [];
    client.middlewareStack.add(
      (next, context) => (args) => {
        commands.push(String(context.commandName));
        return next(args);
      },
      { step: 'initialize' },
    );
    return commands;
  }

  it('aborts the multipart upload when the source fails after some parts', async () => {
    const client = server.client();
    const commands = recordCommands(client);
    const store = new S3BlobStore(client, server.config.bucket, { partSize: TEST_PART_SIZE });
    const cause = new Error('client went away');

    await expect(store.put('cut-off', failingStream(randomBytes(12 * MiB), cause))).rejects.toBe(cause);

    expect(commands).toContain('CreateMultipartUploadCommand');
    expect(commands).toContain('UploadPartCommand');
    expect(commands).toContain('AbortMultipartUploadCommand');
    expect(commands).not.toContain('CompleteMultipartUploadCommand');
    expect(await store.stat('cut-off')).toBeNull();
    client.destroy();
  });

  it('sends a single PutObject for a body smaller than a part', async () => {
    const client = server.client();
    const commands = recordCommands(client);
    const store = new S3BlobStore(client, server.config.bucket, { partSize: TEST_PART_SIZE });

    await expect(store.put('small', streamOf(randomBytes(MiB)))).resolves.toEqual({ size: MiB });

    expect(commands).toEqual(['PutObjectCommand']);
    client.destroy();
  });
});
