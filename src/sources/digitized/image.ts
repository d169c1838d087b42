/** The kind and size of a project's image from its first bytes (PNG, JPEG, GIF); undefined for anything else. */
export interface ImageInfo { readonly mime: 'image/png' | 'image/jpeg' | 'image/gif'; readonly width: number; readonly height: number }

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function jpegSize(b: Buffer): { width: number; height: number } | undefined {
  let i = 2;
  while (i + 9 < b.length) {
    if (b[i] !== 0xff) return undefined;
    const marker = b[i + 1];
    if (marker === 0xd8 || (marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) { i += 2; continue; }
    const len = b.readUInt16BE(i + 2);
    // Start of frame (baseline, progressive, …; not DHT 0xc4, JPG 0xc8, DAC 0xcc).
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return { height: b.readUInt16BE(i + 5), width: b.readUInt16BE(i + 7) };
    }
    i += 2 + len;
  }
  return undefined;
}

export function imageInfo(b: Buffer): ImageInfo | undefined {
  let size: { width: number; height: number } | undefined;
  let mime: ImageInfo['mime'];
  if (b.length >= 24 && b.subarray(0, 8).equals(PNG) && b.toString('latin1', 12, 16) === 'IHDR') {
    mime = 'image/png';
    size = { width: b.readUInt32BE(16), height: b.readUInt32BE(20) };
  } else if (b.length >= 4 && b[0] === 0xff && b[1] === 0xd8) {
    mime = 'image/jpeg';
    size = jpegSize(b);
  } else if (b.length >= 10 && (b.toString('latin1', 0, 6) === 'GIF87a' || b.toString('latin1', 0, 6) === 'GIF89a')) {
    mime = 'image/gif';
    size = { width: b.readUInt16LE(6), height: b.readUInt16LE(8) };
  } else return undefined;
  if (!size || !(size.width > 0 && size.height > 0 && size.width <= 65535 && size.height <= 65535)) return undefined;
  return { mime, ...size };
}
