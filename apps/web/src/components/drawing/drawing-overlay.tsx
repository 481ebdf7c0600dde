import Box from '@mui/material/Box';
import type { DrawingShape } from '@sutura/domain/drawing';
import { DrawingShapes } from '@/components/drawing/drawing-shapes';
import { usePictureRect } from '@/components/drawing/use-picture-rect';

/**
 * A drawing over the picture of a player: placed on the picture itself (not on the letterboxed
 * element), so it stays on the same spot at any player size, in fullscreen and on a phone. Its
 * text alternative is its comment (or note), also shown over the picture.
 */
export function DrawingOverlay({
  video,
  shapes,
  label,
  caption,
}: {
  video: HTMLVideoElement | null;
  shapes: readonly DrawingShape[];
  /** What the drawing shows, for screen readers: its comment. */
  label: string;
  /** The comment, shown over the top of the picture. */
  caption?: string;
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
      {caption && (
        <Box
          aria-hidden
          data-testid="drawing-caption"
          sx={{
            position: 'absolute',
            left: 8,
            right: 8,
            top: 8,
            px: 1,
            py: 0.5,
            borderRadius: 1,
            bgcolor: 'rgba(0,0,0,0.72)',
            color: '#fff',
            fontSize: { xs: 12, sm: 14 },
            lineHeight: 1.35,
            display: '-webkit-box',
            WebkitLineClamp: 3,
            WebkitBoxOrient: 'vertical',
            overflow: 'hidden',
            width: 'fit-content',
            maxWidth: 'calc(100% - 16px)',
          }}
        >
          {caption}
        </Box>
      )}
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
