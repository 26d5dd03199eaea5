import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { statfs } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

export interface SmallDisk {
  dir: string;
  /** Bytes in use on the filesystem (what a leftover file would show up in). */
  used(): Promise<number>;
  unmount(): void;
}

function tryMount(dir: string, sizeMiB: number): string | null {
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${sizeMiB}m,mode=0700`, 'tmpfs', dir], { stdio: 'ignore' });
    return 'tmpfs';
  } catch {
    // No tmpfs for us (not root, or no CAP_SYS_ADMIN): a tiny ext4 image on a loop device then.
  }
  const image = `${dir}.img`;
  try {
    execFileSync('truncate', ['-s', `${sizeMiB}M`, image], { stdio: 'ignore' });
    execFileSync('mkfs.ext4', ['-q', '-F', image], { stdio: 'ignore' });
    execFileSync('mount', ['-o', 'loop', image, dir], { stdio: 'ignore' });
    return image;
  } catch {
    rmSync(image, { force: true });
    return null;
  }
}

/**
 * A real filesystem of `sizeMiB` that fills up for real (ENOSPC from the kernel, not a fake):
 * a tmpfs, or a loop-mounted ext4 image where tmpfs is refused. Null when neither can be
 * mounted (not root, inside a container without the capability).
 */
export function mountSmallDisk(sizeMiB: number): SmallDisk | null {
  const dir = mkdtempSync(path.join(tmpdir(), 'nimbus-small-disk-'));
  const kind = tryMount(dir, sizeMiB);
  if (kind === null) {
    rmSync(dir, { recursive: true, force: true });
    return null;
  }
  return {
    dir,
    async used() {
      const info = await statfs(dir);
      return (info.blocks - info.bfree) * info.bsize;
    },
    unmount() {
      execFileSync('umount', [dir], { stdio: 'ignore' });
      if (kind !== 'tmpfs') rmSync(kind, { force: true });
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
