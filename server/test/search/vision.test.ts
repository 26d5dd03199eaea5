import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { analyzeImage } from '../../src/search/extract/photo.js';
import { analyzeVideo } from '../../src/search/extract/video.js';
import { MIN_DETECTION_SCORE, pictureText, seePicture } from '../../src/search/extract/vision/describe-picture.js';
import { detectObjects } from '../../src/search/extract/vision/object-detector.js';

const fixture = (name: string) => path.join(import.meta.dirname, '../fixtures/vision', name);

describe('what pictures show', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'nimbus-vision-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('detects the cup of a real espresso photo and the person in a portrait, with the words they are searched by', async () => {
    const espresso = await seePicture(sharp(fixture('espresso.jpg')));
    expect(espresso.labels[0]).toMatchObject({ label: 'cup' });
    expect(espresso.labels.every((d) => d.score >= MIN_DETECTION_SCORE)).toBe(true);
    expect(pictureText([espresso])).toMatch(/^Shows cup.* cup mug drink coffee/);

    const portrait = await seePicture(sharp(fixture('astronaut.jpg')));
    expect(portrait.labels.map((d) => d.label)).toContain('person');
  }, 60_000);

  it('names the look of a picture: black and white, dark, its dominant colours', async () => {
    const grey = await seePicture(sharp(fixture('espresso.jpg')).greyscale());
    expect(grey.look).toEqual(expect.arrayContaining(['black and white', 'monochrome']));
    const night = await seePicture(sharp({ create: { width: 64, height: 64, channels: 3, background: '#0a0a1a' } }).png());
    expect(night.look).toContain('dark');
    expect(night.labels).toEqual([]);
    const lawn = await seePicture(sharp({ create: { width: 64, height: 64, channels: 3, background: '#2f9e3a' } }).png());
    expect(lawn.look).toContain('green');
  }, 60_000);

  it('refuses a picture that is not 512×512 RGB', async () => {
    await expect(detectObjects(new Uint8Array(10))).rejects.toThrow(RangeError);
  });

  it('indexes a photo by what it shows, and a scan by its text alone', async () => {
    const photo = await analyzeImage(new Uint8Array(readFileSync(fixture('espresso.jpg'))));
    expect(photo.kind).toBe('photo');
    expect(photo.text).toContain('Shows cup');
  }, 60_000);

  it('describes a video by frames sampled across it', async () => {
    const video = path.join(dir, 'clip.mp4');
    execFileSync('ffmpeg', [
      ...['-hide_banner', '-loglevel', 'error', '-y', '-loop', '1', '-i', fixture('espresso.jpg'), '-t', '3'],
      ...['-vf', 'scale=640:480,format=yuv420p', '-c:v', 'libx264', '-preset', 'ultrafast', video],
    ]);
    const analysis = await analyzeVideo(video);
    expect(analysis.kind).toBe('video');
    expect(analysis.text).toContain('Shows cup');
  }, 60_000);
});
