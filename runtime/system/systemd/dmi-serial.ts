/**
 * @module
 * The BIOS serial on Linux: SMBIOS type 1 "System Information" serial, exposed by the kernel at
 * `/sys/class/dmi/id/product_serial` with mode 0400 (root only).
 */
import { readFile } from 'node:fs/promises';
import { HostError } from '../host-adapter.js';

/** Where the kernel exposes the serial. */
export const DMI_PRODUCT_SERIAL = '/sys/class/dmi/id/product_serial';

/**
 * Reads and trims the serial (the kernel prints `"%s\n"`).
 *
 * @example
 * ```ts
 * await readDmiSerial(); // 'PF2ABCDE' as root; HostError('permission_denied') otherwise
 * ```
 * @throws HostError `permission_denied` (EACCES/EPERM: not root), `unavailable` (no DMI in
 *   containers, on device-tree ARM boards, VMs without SMBIOS; or an empty value).
 */
export async function readDmiSerial(
  path: string = DMI_PRODUCT_SERIAL,
  read: (path: string) => Promise<string> = (p) => readFile(p, 'utf8'),
): Promise<string> {
  let text: string;
  try {
    text = await read(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EACCES' || code === 'EPERM') {
      throw new HostError('permission_denied', `cannot read the BIOS serial from ${path}: only root may read it`, { cause: error });
    }
    if (code === 'ENOENT' || code === 'ENOTDIR') {
      throw new HostError('unavailable', `no BIOS serial on this host: ${path} does not exist (no SMBIOS/DMI, e.g. in a container)`, {
        cause: error,
      });
    }
    throw new HostError('unavailable', `cannot read the BIOS serial from ${path}: ${(error as Error).message}`, { cause: error });
  }
  const serial = text.trim();
  if (serial === '') throw new HostError('unavailable', `the firmware reports no BIOS serial (${path} is empty)`);
  return serial;
}
