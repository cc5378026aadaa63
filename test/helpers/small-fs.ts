/**
 * A small real file system the test owns, to fill up: tmpfs of `bytes` mounted over `dir`, or,
 * where tmpfs cannot be mounted, an ext4 image on a loop device. Needs root (tests run as root
 * here and in CI); when neither works it throws saying why — a disk-full test that cannot fill a
 * disk must fail, not pass by skipping.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';

export interface SmallFs {
  /** Writes a file until the file system refuses with ENOSPC; returns its path. */
  fill(): string;
  /** Unmounts (lazily if still busy) and removes the image, if any. Idempotent. */
  unmount(): void;
}

function run(cmd: string, args: string[]): void {
  execFileSync(cmd, args, { stdio: ['ignore', 'ignore', 'pipe'] });
}

function reason(error: unknown): string {
  const stderr = (error as { stderr?: Buffer }).stderr?.toString().trim();
  return stderr || (error as Error).message;
}

/** Mounts a `bytes`-sized file system over `dir` (its mode 0700 kept: the daemon's dirs must be private). */
export function mountSmallFs(dir: string, bytes: number): SmallFs {
  let image: string | null = null;
  try {
    run('mount', ['-t', 'tmpfs', '-o', `size=${bytes},mode=0700`, 'tmpfs', dir]);
  } catch (tmpfsError) {
    image = `${dir}.img`;
    try {
      fs.writeFileSync(image, '');
      fs.truncateSync(image, bytes);
      run('mkfs.ext4', ['-q', '-F', '-m', '0', image]);
      run('mount', ['-o', 'loop', image, dir]);
      fs.chmodSync(dir, 0o700);
    } catch (loopError) {
      fs.rmSync(image, { force: true });
      throw new Error(`cannot mount a small file system over ${dir} to fill it (tmpfs: ${reason(tmpfsError)}; loop ext4: ${reason(loopError)}); run the test as root on Linux`);
    }
  }
  let mounted = true;
  const filler = `${dir}/filler.bin`;
  return {
    fill() {
      const fd = fs.openSync(filler, 'a');
      try {
        for (const size of [1 << 20, 64 << 10, 4 << 10, 512, 1]) {
          const chunk = Buffer.alloc(size, 0x5a);
          for (;;) {
            try {
              fs.writeSync(fd, chunk);
            } catch (error) {
              if ((error as NodeJS.ErrnoException).code === 'ENOSPC') break;
              throw error;
            }
          }
        }
      } finally {
        fs.closeSync(fd);
      }
      return filler;
    },
    unmount() {
      if (!mounted) return;
      mounted = false;
      try {
        run('umount', [dir]);
      } catch {
        run('umount', ['-l', dir]);
      }
      if (image) fs.rmSync(image, { force: true });
    },
  };
}
