import { queryOptions, useQuery } from '@tanstack/react-query';
import type { DetailedError, HttpRequest, Upload } from 'tus-js-client';
import type { ApiResult } from '@sutura/domain/envelope';
import { fileTooBigMessage } from '@sutura/domain/errors';
import { DEFAULT_MAX_UPLOAD_BYTES } from '@sutura/domain/limits';
import { isErrorCode } from '@/lib/error-codes';
import { api, API_BASE, SESSION_HEADERS } from '@/lib/http';
import { currentLanguage, i18n } from '@/lib/i18n';
import type { ToastType } from '@/lib/toast';
import type { UploadProgress } from '@/lib/ui-state';
import type { ServerUpload, VideoUploadState } from '@/lib/uploads';
import { checkVideoFile, differentFiles, fingerprintFile } from '@/lib/video-file-check';

// What sends the videos (see UploadsProvider in uploads.tsx): fetched with the first upload, or
// by the pages that upload when they open, never by the first screens.

/** tus waits this long before each new try of a failed request (ms); then the upload stops with an error. */
const RETRY_DELAYS = [0, 1000, 3000, 5000, 10000, 20000, 30000, 60000];
/**
 * PATCH bodies stay under the body limits of usual reverse proxies; each chunk is a resume point.
 * A whole number of the S3 store's 8 MiB parts (apps/api/src/storage/s3-uploads.ts): every chunk
 * but the last ends on a part, so no leftover waits in a tail object between two requests.
 */
const CHUNK_BYTES = 64 * 1024 * 1024;
/** Progress events arrive every few milliseconds; the interface redraws at most this often. */
const PROGRESS_REDRAW_MS = 200;

export const uploadsEndpoint = () => new URL(`${API_BASE}/uploads/`, window.location.origin).toString();

/**
 * The largest video the API accepts: said by `GET /v1/health` when it exposes it, else by the
 * tus server's `Tus-Max-Size` (OPTIONS), else the default of the domain.
 */
async function fetchMaxUploadBytes(): Promise<number> {
  try {
    const health = await api<{ maxUploadBytes?: unknown }>('GET', '/health');
    if (typeof health.maxUploadBytes === 'number' && health.maxUploadBytes > 0) return health.maxUploadBytes;
  } catch {
    // The tus answer below, or the default.
  }
  try {
    const response = await fetch(uploadsEndpoint(), { method: 'OPTIONS', headers: { 'Tus-Resumable': '1.0.0', ...SESSION_HEADERS } });
    const max = Number(response.headers.get('Tus-Max-Size'));
    if (response.ok && Number.isSafeInteger(max) && max > 0) return max;
  } catch {
    // The default below.
  }
  return DEFAULT_MAX_UPLOAD_BYTES;
}

export const maxUploadBytesQueryOptions = () =>
  queryOptions({ queryKey: ['uploads', 'maxBytes'], queryFn: fetchMaxUploadBytes, staleTime: Infinity });

/** The largest video file accepted, in bytes (the default until the API has answered). */
export function useMaxUploadBytes(): number {
  return useQuery(maxUploadBytesQueryOptions()).data ?? DEFAULT_MAX_UPLOAD_BYTES;
}

/** A file refused before any byte was sent; its message is ready to show. */
export class UploadRefusedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UploadRefusedError';
  }
}

function envelopeError(body: string | undefined): { code: string; message: string } | undefined {
  if (!body) return undefined;
  try {
    const parsed = JSON.parse(body) as ApiResult<unknown>;
    if (parsed && typeof parsed === 'object' && parsed.success === false && parsed.error) return parsed.error;
  } catch {
    // Not our envelope: tus' own plain-text answers.
  }
  return undefined;
}

/**
 * The tus client and the texts of its messages, fetched with the first upload: pages that never
 * upload (the sign-in page, the dashboard) do not load them.
 */
let tusClient: Promise<typeof import('tus-js-client')> | undefined;
function loadTus(): Promise<typeof import('tus-js-client')> {
  tusClient ??= Promise.all([import('tus-js-client'), i18n.loadNamespaces(['upload', 'case-file'])]).then(([tus]) => tus);
  return tusClient;
}

/** Pages that upload call this when they open, so that sending starts at once on submit. */
export function preloadUploadClient(): void {
  loadTus().catch((error: unknown) => {
    tusClient = undefined;
    console.error(error);
  });
}

function responseOf(error: Error): { status: number; body: string | undefined } {
  const response = (error as Partial<DetailedError>).originalResponse;
  if (response) return { status: response.getStatus(), body: response.getBody() };
  return { status: 0, body: undefined };
}

/** Network failures and server errors are tried again; refusals of the API are final. */
function shouldRetry(error: DetailedError): boolean {
  // Offline: the 'online' event starts the upload again, no need to spend the tries.
  if (!navigator.onLine) return false;
  const { status, body } = responseOf(error);
  if (status === 0 || status >= 500 || status === 423) return true;
  // tus answers 409 to an offset that does not match (fixed by the HEAD of the next try); the
  // API answers 409 with its envelope (VIDEO_ALREADY_UPLOADED), which no try will change.
  if (status === 409) return !envelopeError(body);
  return false;
}

function errorTextOf(error: Error, file: File, maxBytes: number): string {
  const { status, body } = responseOf(error);
  const apiError = envelopeError(body);
  if (apiError) return apiError.message || i18n.t(`errors:${isErrorCode(apiError.code) ? apiError.code : 'GENERIC'}`);
  // A proxy in front of the API may refuse the size with a page of its own.
  if (status === 413) return fileTooBigMessage(file.name, maxBytes, currentLanguage());
  if (status === 401) return i18n.t('errors:UNAUTHORIZED');
  if (status === 403) return i18n.t('errors:FORBIDDEN');
  if (status === 404) return i18n.t('errors:NOT_FOUND');
  return i18n.t('errors:GENERIC');
}

interface Entry {
  state: VideoUploadState;
  file: File;
  upload: Upload | null;
  maxBytes: number;
  lastRedraw: number;
  /** The caller of start() waits until the server has accepted the upload, or refused it. */
  started: { resolve(): void; reject(error: Error): void } | null;
}

export interface UploadHandlers {
  maxUploadBytes(): Promise<number>;
  /** The aggregate of the running uploads, for the shell's progress bar. */
  progress(progress: UploadProgress): void;
  finished(videoId: string): void;
  notify(type: ToastType, message: string): void;
}

/**
 * Every video upload of this tab. Lives outside React so that it survives page changes; the
 * provider below connects it to the interface.
 */
export class UploadManager {
  private entries = new Map<string, Entry>();
  /** The uploads the progress bar currently counts: reset once they have all finished. */
  private batch = new Set<string>();
  private barShown = false;
  private snapshot: readonly VideoUploadState[] = [];
  private listeners = new Set<() => void>();
  private handlers: UploadHandlers | null = null;

  setHandlers(handlers: UploadHandlers | null): void {
    this.handlers = handlers;
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  getSnapshot = (): readonly VideoUploadState[] => this.snapshot;

  /** An upload still has bytes to send (running, retrying or waiting for the network). */
  hasActive(): boolean {
    return [...this.entries.values()].some((e) => e.state.status === 'uploading' || e.state.status === 'paused');
  }

  /**
   * Sends the file of a video through tus. With the case's unfinished upload the server knows of
   * (`resume`, from any browser of the author), the same file goes on from where it stopped;
   * another file is refused. Resolves once the server has accepted the upload (or once it goes
   * on by itself after a network failure); rejects with an UploadRefusedError, whose message is
   * ready to show, when the file is not a video, is over the limit, is not the one being resumed
   * (no byte sent), or the API refuses the upload.
   */
  async start(videoId: string, file: File, resume: ServerUpload | null = null): Promise<void> {
    const running = this.entries.get(videoId);
    if (running && (running.state.status === 'uploading' || running.state.status === 'paused')) return;
    const maxBytes = (await this.handlers?.maxUploadBytes()) ?? DEFAULT_MAX_UPLOAD_BYTES;
    if (file.size > maxBytes) throw new UploadRefusedError(fileTooBigMessage(file.name, maxBytes, currentLanguage()));
    const refusal = await checkVideoFile(file);
    if (refusal) throw new UploadRefusedError(i18n.t(`errors:${refusal}`));
    const fingerprint = await fingerprintFile(file);
    if (resume?.fingerprint && differentFiles(resume.fingerprint, fingerprint)) {
      await i18n.loadNamespaces('case-file');
      throw new UploadRefusedError(i18n.t('case-file:resume.otherFile', { name: file.name }));
    }

    const { Upload } = await loadTus();
    const endpoint = uploadsEndpoint();
    const metadata: Record<string, string> = { videoId, fingerprint };
    if (file.type) metadata.filetype = file.type;
    const entry: Entry = {
      state: { videoId, fileName: file.name, bytesSent: 0, bytesTotal: file.size, status: 'uploading' },
      file,
      upload: null,
      maxBytes,
      lastRedraw: 0,
      started: null,
    };
    const accepted = new Promise<void>((resolve, reject) => {
      entry.started = { resolve, reject };
    });
    const settle = (error?: Error) => {
      const started = entry.started;
      entry.started = null;
      if (error) started?.reject(error);
      else started?.resolve();
    };
    const upload = new Upload(file, {
      endpoint,
      chunkSize: CHUNK_BYTES,
      retryDelays: RETRY_DELAYS,
      // The file name is left out on purpose: it may contain the patient's name.
      metadata,
      // Where to resume is asked of the server (any browser of the author), not of this browser's storage.
      storeFingerprintForResuming: false,
      ...(resume ? { uploadUrl: `${endpoint}${resume.id}` } : {}),
      // The session cookie goes with every request of this origin; the header asks for the cookie
      // mode (and is the app's CSRF proof, docs/security.md).
      onBeforeRequest: (req: HttpRequest) => {
        for (const [name, value] of Object.entries(SESSION_HEADERS)) req.setHeader(name, value);
        req.setHeader('Accept-Language', currentLanguage());
      },
      onShouldRetry: (error) => {
        const retry = shouldRetry(error);
        // A network failure is not a refusal: the upload goes on by itself, in the background.
        if (retry) settle();
        return retry;
      },
      onUploadUrlAvailable: () => settle(),
      onProgress: (bytesSent, bytesTotal) => {
        if (this.entries.get(videoId) !== entry) return;
        const now = Date.now();
        entry.state = { ...entry.state, bytesSent, bytesTotal, status: 'uploading' };
        if (now - entry.lastRedraw < PROGRESS_REDRAW_MS && bytesSent < bytesTotal) return;
        entry.lastRedraw = now;
        this.changed();
      },
      onSuccess: () => {
        if (this.entries.get(videoId) !== entry) return;
        entry.state = { ...entry.state, bytesSent: entry.state.bytesTotal, status: 'done', error: undefined };
        entry.upload = null;
        settle();
        this.changed();
        this.handlers?.finished(videoId);
      },
      onError: (error) => {
        if (this.entries.get(videoId) !== entry) return;
        if (!navigator.onLine) {
          // Waits for the 'online' event, which starts it again.
          entry.state = { ...entry.state, status: 'paused' };
          settle();
          this.changed();
          return;
        }
        const message = errorTextOf(error, file, maxBytes);
        entry.state = { ...entry.state, status: 'error', error: message };
        this.batch.delete(videoId);
        this.changed();
        // Refused before it started: the caller of start() shows why; later, a toast does.
        if (entry.started) settle(new UploadRefusedError(message));
        else this.handlers?.notify('error', i18n.t('shell:uploads.failed', { message }));
      },
    });
    entry.upload = upload;
    this.entries.set(videoId, entry);
    this.batch.add(videoId);
    this.changed();

    // Cancelled meanwhile.
    if (this.entries.get(videoId) !== entry) return;
    if (navigator.onLine) upload.start();
    else {
      entry.state = { ...entry.state, status: 'paused' };
      settle();
      this.changed();
    }
    return accepted;
  }

  /** Starts a stopped upload again with the file it had (after an error). */
  retry(videoId: string): void {
    const entry = this.entries.get(videoId);
    if (!entry?.upload || entry.state.status !== 'error') return;
    entry.state = { ...entry.state, status: 'uploading', error: undefined };
    this.batch.add(videoId);
    this.changed();
    entry.upload.start();
  }

  /** Stops the upload and deletes what the server received of it. */
  async cancel(videoId: string): Promise<void> {
    const entry = this.entries.get(videoId);
    if (!entry) return;
    entry.started?.resolve();
    entry.started = null;
    this.entries.delete(videoId);
    this.batch.delete(videoId);
    this.changed();
    if (entry.upload && entry.state.status !== 'done') await entry.upload.abort(true).catch((error: unknown) => console.error(error));
  }

  /** The browser went offline: running uploads stop at once rather than spend their tries. */
  wentOffline(): void {
    let paused = false;
    for (const entry of this.entries.values()) {
      if (entry.state.status !== 'uploading' || !entry.upload) continue;
      void entry.upload.abort(false);
      entry.state = { ...entry.state, status: 'paused' };
      entry.started?.resolve();
      entry.started = null;
      paused = true;
    }
    if (!paused) return;
    this.changed();
    this.handlers?.notify('warning', i18n.t('shell:uploads.offline'));
  }

  /** Back online: every paused upload asks the server where it stopped and goes on from there. */
  cameOnline(): void {
    let resumed = false;
    for (const entry of this.entries.values()) {
      if (entry.state.status !== 'paused' || !entry.upload) continue;
      entry.state = { ...entry.state, status: 'uploading' };
      entry.upload.start();
      resumed = true;
    }
    if (!resumed) return;
    this.changed();
    this.handlers?.notify('info', i18n.t('shell:uploads.online'));
  }

  /** The session ended: nothing goes on under the next person's token. */
  stopAll(): void {
    if (this.entries.size === 0) return;
    for (const entry of this.entries.values()) {
      entry.started?.resolve();
      void entry.upload?.abort(false);
    }
    this.entries.clear();
    this.batch.clear();
    this.changed();
  }

  private changed(): void {
    this.snapshot = [...this.entries.values()].map((e) => e.state);
    this.publishProgress();
    for (const listener of this.listeners) listener();
  }

  private publishProgress(): void {
    const counted = [...this.batch].flatMap((id) => this.entries.get(id) ?? []);
    if (counted.length === 0) {
      if (this.barShown) this.handlers?.progress({ value: 0, show: false });
      this.barShown = false;
      return;
    }
    if (counted.every((e) => e.state.status === 'done')) {
      // The shell's bar shows 100, then resets itself and says the upload has finished.
      this.handlers?.progress({ value: 100, show: true });
      this.batch.clear();
      this.barShown = false;
      return;
    }
    const total = counted.reduce((sum, e) => sum + e.state.bytesTotal, 0);
    const sent = counted.reduce((sum, e) => sum + e.state.bytesSent, 0);
    // 100 only once the server has confirmed the last byte.
    const value = total > 0 ? Math.min(99, (sent / total) * 100) : 0;
    this.handlers?.progress({ value, show: true });
    this.barShown = true;
  }
}
