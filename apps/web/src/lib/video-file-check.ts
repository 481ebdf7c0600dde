import type { ErrorCode } from '@sutura/domain/errors';
import { UPLOAD_FINGERPRINT_EDGE_BYTES } from '@sutura/domain/limits';

/** Enough of the file's start to recognise every container below (MPEG-TS needs three packets). */
const HEAD_BYTES = 600;
/** A browser that has not read the duration by then cannot: the server decides. */
const METADATA_TIMEOUT_MS = 5000;

const ascii = (bytes: Uint8Array, at: number, text: string) =>
  bytes.length >= at + text.length && [...text].every((c, i) => bytes[at + i] === c.charCodeAt(0));
const startsWith = (bytes: Uint8Array, at: number, values: readonly number[]) =>
  bytes.length >= at + values.length && values.every((v, i) => bytes[at + i] === v);

/** ISO base media boxes a QuickTime or MP4 file may open with. */
const MP4_BOXES = ['ftyp', 'moov', 'mdat', 'wide', 'free', 'skip', 'pnot'];

/**
 * The container a file's first bytes announce, or null when they are none the server's ffmpeg
 * reads as a video: MP4/MOV/3GP, Matroska/WebM, AVI, MPEG-TS and M2TS, MPEG-PS, FLV, ASF/WMV,
 * Ogg, MXF, and raw H.264/HEVC streams.
 */
export function videoContainerOf(bytes: Uint8Array): string | null {
  if (MP4_BOXES.some((box) => ascii(bytes, 4, box))) return 'mp4';
  if (startsWith(bytes, 0, [0x1a, 0x45, 0xdf, 0xa3])) return 'matroska';
  if (ascii(bytes, 0, 'RIFF') && ascii(bytes, 8, 'AVI')) return 'avi';
  if (bytes[0] === 0x47 && bytes[188] === 0x47 && (bytes.length < 377 || bytes[376] === 0x47)) return 'mpegts';
  if (bytes[4] === 0x47 && bytes[196] === 0x47) return 'm2ts';
  if (startsWith(bytes, 0, [0, 0, 1, 0xba]) || startsWith(bytes, 0, [0, 0, 1, 0xb3])) return 'mpeg';
  if (ascii(bytes, 0, 'FLV')) return 'flv';
  if (startsWith(bytes, 0, [0x30, 0x26, 0xb2, 0x75, 0x8e, 0x66, 0xcf, 0x11])) return 'asf';
  if (ascii(bytes, 0, 'OggS')) return 'ogg';
  if (startsWith(bytes, 0, [0x06, 0x0e, 0x2b, 0x34])) return 'mxf';
  if (startsWith(bytes, 0, [0, 0, 0, 1]) || startsWith(bytes, 0, [0, 0, 1])) return 'h26x';
  return null;
}

/** What the browser reads of the file as a video; undefined when it cannot tell (a codec it lacks, no answer). */
function readDuration(file: File): Promise<number | undefined> {
  return new Promise((resolve) => {
    const url = URL.createObjectURL(file);
    const video = document.createElement('video');
    const done = (result: number | undefined) => {
      clearTimeout(timer);
      video.removeAttribute('src');
      video.load();
      URL.revokeObjectURL(url);
      resolve(result);
    };
    const timer = setTimeout(() => done(undefined), METADATA_TIMEOUT_MS);
    video.preload = 'metadata';
    video.muted = true;
    video.onloadedmetadata = () => done(video.duration);
    video.onerror = () => done(undefined);
    video.src = url;
  });
}

/**
 * Checks a video file before any byte is sent: its first bytes must be those of a video
 * container, and when the browser can read it, it must last more than nothing. Resolves to the
 * catalogue code of the refusal, or null. The server checks again with ffprobe. A picture the
 * browser cannot decode (HEVC in some browsers) is not a refusal: the server transcodes it.
 */
export async function checkVideoFile(file: File): Promise<ErrorCode | null> {
  const head = new Uint8Array(await file.slice(0, HEAD_BYTES).arrayBuffer());
  if (!videoContainerOf(head)) return 'MEDIA_NOT_A_VIDEO';
  // A live recording may not know its length (Infinity): only a length of zero is refused.
  return (await readDuration(file)) === 0 ? 'MEDIA_TRUNCATED' : null;
}

function hex(bytes: Uint8Array): string {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** FNV-1a over 64 bits, for pages served without HTTPS where crypto.subtle is missing. */
function fnv64(bytes: Uint8Array): string {
  let hash = 0xcbf29ce484222325n;
  const prime = 0x100000001b3n;
  const mask = 0xffffffffffffffffn;
  for (const byte of bytes) hash = ((hash ^ BigInt(byte)) * prime) & mask;
  return hash.toString(16).padStart(16, '0');
}

/**
 * The file's fingerprint (UPLOAD_FINGERPRINT_PATTERN): its size and a hash of its first and last
 * MiB, the same in every browser that offers crypto.subtle.
 */
export async function fingerprintFile(file: File): Promise<string> {
  const edge = UPLOAD_FINGERPRINT_EDGE_BYTES;
  const first = new Uint8Array(await file.slice(0, edge).arrayBuffer());
  const last = file.size > edge ? new Uint8Array(await file.slice(Math.max(edge, file.size - edge)).arrayBuffer()) : new Uint8Array();
  const both = new Uint8Array(first.length + last.length);
  both.set(first);
  both.set(last, first.length);
  if (globalThis.crypto?.subtle) {
    return `sha256:${file.size}:${hex(new Uint8Array(await crypto.subtle.digest('SHA-256', both)))}`;
  }
  return `fnv64:${file.size}:${fnv64(both)}`;
}

/** Two fingerprints speak of different files (one of each kind of hash cannot tell: it says no). */
export function differentFiles(a: string, b: string): boolean {
  const [algorithmA, sizeA] = a.split(':');
  const [algorithmB, sizeB] = b.split(':');
  if (sizeA !== sizeB) return true;
  return algorithmA === algorithmB && a !== b;
}
