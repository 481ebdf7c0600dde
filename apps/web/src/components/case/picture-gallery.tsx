import { useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import ButtonBase from '@mui/material/ButtonBase';
import Dialog from '@mui/material/Dialog';
import IconButton from '@mui/material/IconButton';
import Typography from '@mui/material/Typography';
import ChevronLeft from '@mui/icons-material/ChevronLeft';
import ChevronRight from '@mui/icons-material/ChevronRight';
import Close from '@mui/icons-material/Close';
import type { VideoDetail } from '@sutura/domain/videos';
import { useStableMediaUrl } from '@/components/video/use-stable-media-url';

type Picture = Omit<VideoDetail['pictures'][number], 'mediaId'>;

function PictureImage({ picture, alt, fit }: { picture: Picture; alt: string; fit: 'cover' | 'contain' }) {
  const image = useStableMediaUrl(picture.url);
  return (
    <Box
      component="img"
      src={image.src ?? undefined}
      alt={alt}
      loading={fit === 'cover' ? 'lazy' : undefined}
      onError={() => image.renew()}
      sx={
        fit === 'cover'
          ? { display: 'block', width: '100%', height: '100%', objectFit: 'cover' }
          : { display: 'block', maxWidth: '100%', maxHeight: 'calc(100dvh - 160px)', objectFit: 'contain', mx: 'auto' }
      }
    />
  );
}

/** The "pictures" tab: a grid of the case's pictures; one opens large, with previous and next. */
export function PictureGallery({ pictures }: { pictures: Picture[] }) {
  const { t } = useTranslation('videos');
  const [open, setOpen] = useState<number | null>(null);
  const count = pictures.length;
  const index = open === null ? null : Math.min(open, count - 1);
  const picture = index === null ? undefined : pictures[index];
  const go = (delta: number) => setOpen((i) => (i === null ? i : (i + delta + count) % count));

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'ArrowLeft') go(-1);
    else if (event.key === 'ArrowRight') go(1);
  };

  return (
    <>
      <Box
        component="ul"
        sx={{ listStyle: 'none', p: 0, m: 0, display: 'grid', gap: 1.5, gridTemplateColumns: 'repeat(auto-fill, minmax(150px, 1fr))' }}
      >
        {pictures.map((p, i) => (
          <Box component="li" key={p.id}>
            <ButtonBase
              data-testid="picture-thumbnail"
              onClick={() => setOpen(i)}
              aria-label={t('pictures.open', { index: i + 1, count })}
              sx={{
                display: 'block',
                width: '100%',
                aspectRatio: '4 / 3',
                borderRadius: 2,
                overflow: 'hidden',
                bgcolor: 'action.hover',
                '&:focus-visible': { outline: '3px solid', outlineColor: 'secondary.main', outlineOffset: 2 },
              }}
            >
              <PictureImage picture={p} alt="" fit="cover" />
            </ButtonBase>
          </Box>
        ))}
      </Box>
      <Dialog
        open={picture !== undefined}
        onClose={() => setOpen(null)}
        onKeyDown={onKeyDown}
        maxWidth="lg"
        fullWidth
        aria-labelledby="lightbox-title"
        slotProps={{
          paper: { sx: { bgcolor: '#000', color: '#fff', m: { xs: 1, sm: 4 }, width: { xs: 'calc(100% - 16px)', sm: undefined } } },
        }}
      >
        {picture && index !== null && (
          <Box sx={{ position: 'relative', p: { xs: 1, sm: 2 }, display: 'grid', gap: 1 }}>
            <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
              <Typography id="lightbox-title" sx={{ flex: 1, fontWeight: 700 }}>
                {t('pictures.position', { index: index + 1, count })}
              </Typography>
              <IconButton aria-label={t('pictures.close')} onClick={() => setOpen(null)} sx={{ color: '#fff' }}>
                <Close />
              </IconButton>
            </Box>
            <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
              {count > 1 && (
                <IconButton aria-label={t('pictures.previous')} onClick={() => go(-1)} sx={{ color: '#fff' }}>
                  <ChevronLeft fontSize="large" />
                </IconButton>
              )}
              <Box sx={{ flex: 1, minWidth: 0 }}>
                <PictureImage key={picture.id} picture={picture} alt={t('pictures.alt', { index: index + 1, count })} fit="contain" />
              </Box>
              {count > 1 && (
                <IconButton aria-label={t('pictures.next')} onClick={() => go(1)} sx={{ color: '#fff' }}>
                  <ChevronRight fontSize="large" />
                </IconButton>
              )}
            </Box>
          </Box>
        )}
      </Dialog>
    </>
  );
}
