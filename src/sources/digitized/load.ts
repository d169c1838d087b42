import { createHash } from 'node:crypto';
import { readRegular } from '../../core/input-file.js';
import { posix } from 'node:path';
import { UserError } from '../../core/errors.js';
import { sha256File } from '../../core/hash.js';
import { msg } from '../../core/messages/common.js';
import { imageInfo, type ImageInfo } from './image.js';
import { openTar, safeName, type TarMember } from './tar.js';
import { sourcesDigitizedMsg } from './messages.js';

/** Size limits of a project: its JSON, each image, the members of a .tar. */
export const PROJECT_LIMITS = { maxJson: 16 * 2 ** 20, maxImage: 32 * 2 ** 20, maxMembers: 256 } as const;

export interface ProjectImage {
  readonly name: string;
  readonly sha256: string;
  readonly bytes: number;
  /** Kind and pixel size for PNG, JPEG and GIF images (drawn in the report); undefined otherwise. */
  readonly info?: ImageInfo;
  readonly data?: Buffer;
}

/** A project's bytes: the JSON text, the file's SHA-256, and the images of a .tar. */
export interface LoadedProject { readonly text: string; readonly sha256: string; readonly container: 'json' | 'tar'; readonly images: readonly ProjectImage[] }

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

const IMAGE_EXT = /\.(png|jpe?g|gif|bmp|webp|tiff?)$/i;

function fileBytes(path: string, file: string, limit: number): Buffer {
  const r = readRegular(path, limit); // a FIFO or a device is refused before a byte is read
  if ('size' in r) throw new UserError(sourcesDigitizedMsg.tooLarge(file, 'the project', r.size, limit));
  if ('reason' in r) throw new UserError(msg.fileUnreadable(file, r.reason));
  return r.bytes;
}

/** info.json of a .tar: the project JSON's name and the images' names, each inside the project folder. */
function readInfo(file: string, bytes: Buffer, at: string): { json: string; images: string[] } {
  let o: unknown;
  try { o = JSON.parse(bytes.toString('utf8').replace(/^\uFEFF/, '')); } catch (e) { throw new UserError(sourcesDigitizedMsg.notJson(`${file}:${at}`,
    (e as Error).message)); }
  if (typeof o !== 'object' || o === null || Array.isArray(o)) throw new UserError(sourcesDigitizedMsg.field(`${file}:${at}`, '(top level)',
    'not a JSON object'));
  const r = o as Record<string, unknown>;
  const json = r.json ?? 'wpd.json';
  if (typeof json !== 'string') throw new UserError(sourcesDigitizedMsg.field(`${file}:${at}`, 'json', 'not a string'));
  const images = r.images ?? [];
  if (!Array.isArray(images) || !images.every((x) => typeof x === 'string')) throw new UserError(sourcesDigitizedMsg.field(`${file}:${at}`, 'images',
    'not an array of strings'));
  return { json, images: images as string[] };
}

function loadTar(path: string, file: string): LoadedProject {
  const tar = openTar(path, file, { maxMember: Math.max(PROJECT_LIMITS.maxJson, PROJECT_LIMITS.maxImage), maxMembers: PROJECT_LIMITS.maxMembers });
  try {
    const byName = new Map(tar.members.map((x) => [x.name, x]));
    const shallow = (base: string) => tar.members.filter((x) => posix.basename(x.name) === base && x.name.split('/').length <= 2);
    const infos = shallow('info.json');
    if (infos.length > 1) throw new UserError(sourcesDigitizedMsg.tarTwoProjects(file, infos[0].name, infos[1].name));
    let dir: string, jsonName: string, imageNames: string[];
    if (infos.length === 1) {
      dir = posix.dirname(infos[0].name);
      const info = readInfo(file, tar.read(infos[0]), infos[0].name);
      jsonName = info.json;
      imageNames = info.images;
    } else {
      const jsons = shallow('wpd.json');
      if (jsons.length === 0) throw new UserError(sourcesDigitizedMsg.tarNoProject(file));
      if (jsons.length > 1) throw new UserError(sourcesDigitizedMsg.tarTwoProjects(file, jsons[0].name, jsons[1].name));
      dir = posix.dirname(jsons[0].name);
      jsonName = 'wpd.json';
      imageNames = tar.members.filter((x) => posix.dirname(x.name) === dir && IMAGE_EXT.test(x.name)).map((x) => posix.basename(x.name));
    }
    const member = (name: string, by: string): TarMember => {
      const full = safeName(dir === '.' ? name : `${dir}/${name}`);
      if (full === undefined) throw new UserError(sourcesDigitizedMsg.tarUnsafePath(file, name));
      const found = byName.get(full);
      if (!found) throw new UserError(sourcesDigitizedMsg.tarMissing(file, name, by));
      return found;
    };
    const jm = member(jsonName, 'info.json');
    if (jm.size > PROJECT_LIMITS.maxJson) throw new UserError(sourcesDigitizedMsg.tooLarge(file, `member ${JSON.stringify(jm.name)}`, jm.size,
      PROJECT_LIMITS.maxJson));
    const images = imageNames.map((name) => {
      const im = member(name, 'info.json');
      if (im.size > PROJECT_LIMITS.maxImage) throw new UserError(sourcesDigitizedMsg.tooLarge(file, `image ${JSON.stringify(name)}`, im.size,
        PROJECT_LIMITS.maxImage));
      const data = tar.read(im);
      const info = imageInfo(data);
      return { name, sha256: sha(data), bytes: im.size, info, data: info ? data : undefined };
    });
    const text = tar.read(jm).toString('utf8');
    // The project's SHA-256 is that of the .tar file as given.
    return { text, sha256: sha256File(path), container: 'tar', images };
  } finally {
    tar.close();
  }
}

/** Load a project file: a .tar (info.json, wpd.json, images) or the project JSON alone. */
export function loadProject(path: string, file: string): LoadedProject {
  if (/\.tar$/i.test(path)) return loadTar(path, file);
  const buf = fileBytes(path, file, PROJECT_LIMITS.maxJson);
  const image = imageInfo(buf);
  if (image) throw new UserError(sourcesDigitizedMsg.anImage(file, image.mime.slice('image/'.length).toUpperCase()));
  return { text: buf.toString('utf8'), sha256: sha(buf), container: 'json', images: [] };
}
