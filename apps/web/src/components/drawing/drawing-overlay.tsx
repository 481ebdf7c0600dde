import Box from '@mui/material/Box';
import type { DrawingShape } from '@sutura/domain/drawing';
import { DrawingShapes } from '@/components/drawing/drawing-shapes';
import { usePictureRect } from '@/components/drawing/use-picture-rect';

/**
 * A drawing over the picture of a player: placed on the picture itself (not on the letterboxed
 * element), so it stays on the same spot at any player size, in fullscreen and on a phone. Its
 * text alternative is its comment (or note), which the player also shows under the picture
 * (DrawingCaption).
 */
export function DrawingOverlay({
  video,
  shapes,
  label,
}: {
  video: HTMLVideoElement | null;
  shapes: readonly DrawingShape[];
  /** What the drawing shows, for screen readers: its comment. */
  label: string;
}) {
  const rect = usePictureRect(video);
  if (!rect) return null;
  return (
    <Box
      role="img"
      aria-label={label}
      data-testid="drawing-overlay"
      sx={{ position: 'absolute', left: rect.left, top: rect.top, width: rect.width, height: rect.height, pointerEvents: 'none' }}
    >
      <svg
        viewBox={`0 0 ${rect.videoWidth} ${rect.videoHeight}`}
        width="100%"
        height="100%"
        preserveAspectRatio="none"
        aria-hidden
        style={{ display: 'block', overflow: 'hidden' }}
      >
        <DrawingShapes shapes={shapes} width={rect.videoWidth} height={rect.videoHeight} />
      </svg>
    </Box>
  );
}

/**
 * The comment (or note) of the drawing shown, under the picture (the player's `caption`): over the
 * picture it would hide what is drawn there, a text label first, on a phone most of all. Read by
 * screen readers as the drawing's text alternative already, so hidden from them here.
 */
export function DrawingCaption({ text }: { text: string }) {
  return (
    <Box
      aria-hidden
      data-testid="drawing-caption"
      sx={{
        px: { xs: 1, sm: 1.5 },
        py: 0.75,
        bgcolor: '#000',
        color: '#fff',
        borderBottom: '1px solid rgba(255,255,255,0.2)',
        fontSize: { xs: 13, sm: 14 },
        lineHeight: 1.4,
        display: '-webkit-box',
        WebkitLineClamp: 3,
        WebkitBoxOrient: 'vertical',
        overflow: 'hidden',
        overflowWrap: 'anywhere',
      }}
    >
      {text}
    </Box>
  );
}

/**
 * A small picture of an annotated frame: the storyboard's thumbnail nearest the drawing's time
 * (or the poster), with the drawing over it.
 */
export function DrawingThumbnail({
  shapes,
  image,
  label,
}: {
  shapes: readonly DrawingShape[];
  /** A sprite cell (background position and size) or a whole image, in CSS. */
  image: { url: string; width: number; height: number; position?: string; size?: string } | null;
  label: string;
}) {
  const width = image?.width ?? 160;
  const height = image?.height ?? 90;
  return (
    <Box
      role="img"
      aria-label={label}
      data-testid="drawing-thumbnail"
      sx={{
        position: 'relative',
        width: 128,
        aspectRatio: `${width} / ${height}`,
        flex: '0 0 auto',
        borderRadius: 1,
        overflow: 'hidden',
        bgcolor: '#000',
        backgroundImage: image ? `url("${image.url}")` : undefined,
        backgroundRepeat: 'no-repeat',
        backgroundPosition: image?.position ?? 'center',
        backgroundSize: image?.size ?? 'cover',
      }}
    >
      <svg
        viewBox={`0 0 ${width} ${height}`}
        width="100%"
        height="100%"
        preserveAspectRatio="none"
        aria-hidden
        style={{ display: 'block' }}
      >
        <DrawingShapes shapes={shapes} width={width} height={height} />
      </svg>
    </Box>
  );
}
