import { existsSync } from 'node:fs';
import { rm, writeFile } from 'node:fs/promises';
import { fileArg, run } from '../media-pipeline/ffmpeg.ts';

/** fonts-dejavu-core; without it the clips carry no text. */
export const DEMO_FONT = '/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf';

/** A path is written into the filter graph as it is: only plain characters are allowed there. */
const plainPath = (p: string) => /^[\w./-]+$/.test(p);

/**
 * A synthetic surgery recording for the demo cases: a test pattern at 640×360, 25 fps, with a
 * running clock and a label burnt in, and a 440 Hz tone; H.264 + AAC in MP4, like what a
 * recorder hands over (so it takes the remux path of the pipeline). Its label is written beside
 * `file` (the caller's scratch folder) while ffmpeg runs.
 */
export async function generateDemoClip(
  file: string,
  opts: {
    seconds: number;
    label: string;
    /** Stretches filled black (camera out of the patient) or white (lens against a light). */
    outOfBody?: { start: number; end: number; colour: 'black' | 'white' }[];
    ffmpegPath?: string;
    signal?: AbortSignal;
  },
): Promise<void> {
  const seconds = Math.max(1, Math.round(opts.seconds));
  // The label is read from a file, so that no character of it is taken for filter syntax.
  const labelFile = `${file}.label.txt`;
  try {
    const filters = ['format=yuv420p'];
    for (const part of opts.outOfBody ?? []) {
      const between = `between(t\\,${part.start.toFixed(2)}\\,${part.end.toFixed(2)})`;
      filters.push(`drawbox=x=0:y=0:w=iw:h=ih:color=${part.colour}:t=fill:enable='${between}'`);
    }
    if (existsSync(DEMO_FONT) && plainPath(DEMO_FONT) && plainPath(labelFile)) {
      await writeFile(labelFile, opts.label.replace(/[\r\n]+/g, ' '));
      const box = 'box=1:boxcolor=black@0.55:boxborderw=8:fontcolor=white';
      filters.push(
        `drawtext=fontfile=${DEMO_FONT}:textfile=${labelFile}:expansion=none:fontsize=26:x=(w-tw)/2:y=24:${box}`,
        `drawtext=fontfile=${DEMO_FONT}:text='%{pts\\:hms}':fontsize=40:x=(w-tw)/2:y=h-th-28:${box}`,
      );
    }
    await run(
      [
        '-f',
        'lavfi',
        '-i',
        `testsrc2=size=640x360:rate=25:duration=${seconds}`,
        '-f',
        'lavfi',
        '-i',
        `sine=frequency=440:sample_rate=48000:duration=${seconds}`,
        '-map',
        '0:v',
        '-map',
        '1:a',
        '-vf',
        filters.join(','),
        '-c:v',
        'libx264',
        '-preset',
        'ultrafast',
        '-crf',
        '28',
        '-pix_fmt',
        'yuv420p',
        '-g',
        '50',
        '-c:a',
        'aac',
        '-b:a',
        '96k',
        '-ac',
        '2',
        '-map_metadata',
        '-1',
        '-fflags',
        '+bitexact',
        '-flags:v',
        '+bitexact',
        '-flags:a',
        '+bitexact',
        '-movflags',
        '+faststart',
        '-f',
        'mp4',
        fileArg(file),
      ],
      { bin: opts.ffmpegPath, timeoutMs: 10 * 60_000, signal: opts.signal },
    );
  } finally {
    await rm(labelFile, { force: true });
  }
}
