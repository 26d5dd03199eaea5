import type { Clock } from '../services/clock.js';
import type { EncryptedStore } from '../storage/blob-store.js';
import { ComputeTimeoutError, type ComputePool } from './compute/pool.js';
import { isPreviewedPhoto, type IndexSourceRepository, type IndexedFile } from './db/index-source.repository.js';
import type { SearchEntry, SearchRepository } from './db/search.repository.js';
import type { FallbackEmbeddingProvider } from './embed/fallback.js';
import { quantize } from './embed/quantize.js';
import type { Analyzed } from './compute/tasks.js';
import type { PictureVector } from './extract/picture-embedding.js';
import type { PictureModel, ReadyPictureModel } from './embed/picture-model.js';
import type { RemoteCaptioner } from './caption/remote-captioner.js';
import { readContent } from './read-content.js';
import { sharp } from '../media/sharp.js';
import { describeFile, describeFolder, type Description } from './text/describe.js';

/**
 * Version of what the analysis extracts. Raise it when extraction improves: the backfill job
 * then re-analyses every older entry in the background.
 */
export const ANALYSIS_VERSION = 2;
const FOLDER_CHILDREN = 200;
/** Photos go to the caption model at most this big: vision models look at ~768 px anyway. */
const CAPTION_SIDE = 768;

/** Builds the search entries of files and folders. Idempotent: running it twice changes nothing. */
export class SearchIndexer {
  constructor(
    private readonly entries: SearchRepository,
    private readonly sources: IndexSourceRepository,
    private readonly store: EncryptedStore,
    private readonly pool: ComputePool,
    private readonly embeddings: FallbackEmbeddingProvider,
    private readonly clock: Clock,
    private readonly captioner: RemoteCaptioner | null = null,
    private readonly pictures: PictureModel | null = null,
  ) {}

  /** Returns the file's folder (whose description includes it), or undefined when nothing was indexed. */
  async indexFile(id: string): Promise<{ folderId: string | null } | undefined> {
    const file = await this.sources.file(id);
    if (!file) {
      await this.entries.remove(id);
      return undefined;
    }
    // Trashed files never show in search; a restore makes them stale for the backfill.
    if (file.trashedAt !== null) return undefined;
    const existing = await this.entries.find(id);
    const model = this.pictures?.ready() ?? null;
    // New content (a replacement, a restored version) is stored after the entry was made: its words
    // are read again; a rename or a move keeps the analysis (and a new image–text model only
    // embeds the picture again).
    let analysis: Analyzed;
    let picture: PictureFields;
    if (
      existing &&
      existing.analysisVersion === ANALYSIS_VERSION &&
      existing.kind &&
      Number(existing.indexedAt) > Number(file.uploadedAt)
    ) {
      analysis = { kind: existing.kind, text: existing.content, contentDate: existing.contentDate, place: existing.place };
      const pictured = existing.kind === 'photo' || existing.kind === 'video';
      picture =
        model && pictured && existing.imageModelId !== model.id
          ? await this.embedAgain(file, model)
          : { imageModelId: existing.imageModelId, imageEmbedding: existing.imageEmbedding };
    } else {
      const source = model ? await this.pictureSource(file) : 'later';
      analysis = await this.analyze(file, model && source !== 'later' && source !== null ? { model, source } : null);
      picture = this.pictureFields(model, analysis, source);
    }
    const description = describeFile({ ...file, ...analysis, content: analysis.text });
    await this.save(existing, description, picture, {
      itemId: file.id,
      itemType: 'file',
      ownerId: file.ownerId,
      kind: analysis.kind,
      contentDate: analysis.contentDate ?? file.uploadedAt,
      place: analysis.place,
      content: analysis.text,
      sourceUpdatedAt: file.updatedAt,
    });
    return { folderId: file.folderId };
  }

  async indexFolder(id: string): Promise<void> {
    const folder = await this.sources.folder(id);
    if (!folder) {
      await this.entries.remove(id);
      return;
    }
    if (folder.trashedAt !== null) return;
    const children = await this.sources.children(id, FOLDER_CHILDREN);
    const description = describeFolder({ name: folder.name, parentName: folder.parentName, children });
    await this.save(await this.entries.find(id), description, NO_PICTURE, {
      itemId: folder.id,
      itemType: 'folder',
      ownerId: folder.ownerId,
      kind: null,
      contentDate: null,
      place: null,
      content: '',
      sourceUpdatedAt: folder.updatedAt,
    });
  }

  /**
   * What the file contains. Content that outruns its thread's time or memory (a decompression bomb,
   * a document that makes a parser loop) is the file's doing, not a passing fault: such a file is
   * described by its name alone rather than retried.
   */
  private async analyze(file: IndexedFile, picturing: Picturing | null): Promise<Analyzed> {
    const base = { filename: file.filename, contentType: file.contentType };
    try {
      return await this.analyzeContent(file, base, picturing);
    } catch (err) {
      if (!isTooCostly(err)) throw err;
      return this.pool.run({ type: 'analyze', ...base });
    }
  }

  private async analyzeContent(
    file: IndexedFile,
    base: { filename: string; contentType: string },
    picturing: Picturing | null,
  ): Promise<Analyzed> {
    const content = await readContent(this.store, file);
    if (content === null) return this.pool.run({ type: 'analyze', ...base });
    const clip: { clipDir?: string; pictureBytes?: Uint8Array } = picturing
      ? { clipDir: picturing.model.dir, ...(picturing.source === 'own' ? {} : { pictureBytes: picturing.source }) }
      : {};
    if ('bytes' in content) {
      // The caption model's copy is made before the bytes move to the compute thread.
      const forCaption = this.captioner && file.contentType.startsWith('image/') ? await captionImage(content.bytes) : null;
      const moved = [content.bytes.buffer as ArrayBuffer, ...(clip.pictureBytes ? [clip.pictureBytes.buffer as ArrayBuffer] : [])];
      const analysis = await this.pool.run({ type: 'analyze', ...base, bytes: content.bytes, ...clip }, moved);
      return forCaption && analysis.kind === 'photo' ? this.withCaption(analysis, forCaption) : analysis;
    }
    try {
      return await this.pool.run({ type: 'analyze', ...base, path: content.path, ...clip });
    } finally {
      await content.cleanup();
    }
  }

  /**
   * What the image–text model embeds for a file: its own pixels, or for a HEIC or RAW (whose pixels
   * the analysis does not decode) its stored preview; null when there is no preview, `later` while the
   * thumbnail job has not run (the backfill comes back to it).
   */
  private async pictureSource(file: IndexedFile): Promise<PictureSource> {
    if (!isPreviewedPhoto(file.contentType)) return 'own';
    const preview = await this.sources.preview(file.id);
    if (preview === null || preview === 'later') return preview;
    const bytes = new Uint8Array(preview.size);
    let offset = 0;
    for await (const chunk of (await this.store.read(preview.key, preview.wrappedKey, preview.size)) as AsyncIterable<Buffer>) {
      bytes.set(chunk.subarray(0, preview.size - offset), offset);
      offset += chunk.length;
    }
    return bytes.subarray(0, Math.min(offset, preview.size));
  }

  /** The image fields of a fresh analysis: tried and found nothing is stored too, so the backfill moves on. */
  private pictureFields(model: ReadyPictureModel | null, analysis: Analyzed, source: PictureSource): PictureFields {
    if (!model || source === 'later' || (analysis.kind !== 'photo' && analysis.kind !== 'video')) return NO_PICTURE;
    return this.stored(model, analysis.picture ?? { vector: null });
  }

  private stored(model: ReadyPictureModel, picture: PictureVector): PictureFields {
    if (picture.error !== undefined) {
      this.pictures?.failed(model.dir, picture.error);
      return NO_PICTURE;
    }
    return { imageModelId: model.id, imageEmbedding: picture.vector ? quantize(picture.vector) : null };
  }

  /** Only the picture's embedding, for a file analysed before the model (or this model) was there. */
  private async embedAgain(file: IndexedFile, model: ReadyPictureModel): Promise<PictureFields> {
    const source = await this.pictureSource(file);
    if (source === 'later') return NO_PICTURE;
    try {
      return this.stored(model, await this.embedPicture(file, model, source));
    } catch (err) {
      // As for the analysis: a picture that outruns its thread's time or memory gets no embedding.
      if (!isTooCostly(err)) throw err;
      return this.stored(model, { vector: null });
    }
  }

  private async embedPicture(file: IndexedFile, model: ReadyPictureModel, source: 'own' | Uint8Array | null): Promise<PictureVector> {
    if (source === null) return { vector: null };
    const task = { type: 'clip-image' as const, dir: model.dir, contentType: file.contentType };
    if (source !== 'own') return this.pool.run({ ...task, bytes: source }, [source.buffer as ArrayBuffer]);
    const content = await readContent(this.store, file);
    if (content === null) return { vector: null };
    if ('bytes' in content) return this.pool.run({ ...task, bytes: content.bytes }, [content.bytes.buffer as ArrayBuffer]);
    try {
      return await this.pool.run({ ...task, path: content.path });
    } finally {
      await content.cleanup();
    }
  }

  /** The photo's caption from the configured vision model, before what the bundled analysis found. */
  private async withCaption(analysis: Analyzed, jpeg: Buffer): Promise<Analyzed> {
    const caption = await this.captioner?.caption(jpeg);
    return caption ? { ...analysis, text: `${caption} ${analysis.text}`.trim() } : analysis;
  }

  /** Embeds only when the words or the preferred model changed (a link change or a re-save costs nothing). */
  private async save(
    existing: SearchEntry | undefined,
    description: Description,
    picture: PictureFields,
    fields: Omit<SearchEntry, 'body' | 'analysisVersion' | 'modelId' | 'embedding' | 'indexedAt' | 'imageModelId' | 'imageEmbedding'>,
  ): Promise<void> {
    let { modelId, embedding } = existing ?? { modelId: null, embedding: null };
    if (!existing || existing.body !== description.body || existing.modelId !== this.embeddings.preferredModelId || !embedding) {
      const embedded = await this.embeddings.embed([description.summary], 'document');
      modelId = embedded.modelId;
      embedding = quantize(embedded.vectors[0] as Float32Array);
    }
    await this.entries.upsert({
      ...fields,
      body: description.body,
      analysisVersion: ANALYSIS_VERSION,
      modelId,
      embedding,
      ...picture,
      indexedAt: this.clock.now(),
    });
  }
}

type PictureFields = Pick<SearchEntry, 'imageModelId' | 'imageEmbedding'>;
const NO_PICTURE: PictureFields = { imageModelId: null, imageEmbedding: null };
type PictureSource = 'own' | Uint8Array | null | 'later';
interface Picturing {
  model: ReadyPictureModel;
  source: 'own' | Uint8Array;
}

function isTooCostly(err: unknown): boolean {
  return err instanceof ComputeTimeoutError || (err as NodeJS.ErrnoException | null)?.code === 'ERR_WORKER_OUT_OF_MEMORY';
}

/** The picture as the caption model gets it, or null when it does not decode. */
async function captionImage(bytes: Uint8Array): Promise<Buffer | null> {
  try {
    return await sharp()(bytes, { limitInputPixels: 100_000_000 })
      .rotate()
      .resize(CAPTION_SIDE, CAPTION_SIDE, { fit: 'inside', withoutEnlargement: true })
      .jpeg({ quality: 85 })
      .toBuffer();
  } catch {
    return null;
  }
}
