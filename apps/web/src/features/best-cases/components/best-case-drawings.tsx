import { useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Paper from '@mui/material/Paper';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import type { Theme } from '@mui/material/styles';
import Draw from '@mui/icons-material/DrawOutlined';
import { formatTimecode } from '@sutura/domain/analysis';
import { errorText } from '@/lib/http';
import { DrawingSurface } from '@/components/drawing/drawing-surface';
import { DrawingToolbar } from '@/components/drawing/drawing-toolbar';
import { usePresentedFrame } from '@/components/drawing/frame-time';
import { asPlayedDrawings, TeachingDrawingList } from '@/components/drawing/teaching-drawing-list';
import { useDrawingEditor } from '@/components/drawing/use-drawing-editor';
import { useDrawingPlayback } from '@/components/drawing/use-drawing-playback';
import { VideoPlayer } from '@/components/video/video-player';
import { useAdminBestCase } from '@/features/best-cases/api/best-cases';
import { useAddBestCaseDrawing, useBestCaseDrawings, useDeleteBestCaseDrawing } from '@/features/best-cases/api/best-case-drawings';

/** The best case's drawings on its player, for whoever watches it. */
export function useBestCaseDrawingPlayback(id: string) {
  const drawings = useBestCaseDrawings(id).data;
  const items = useMemo(() => asPlayedDrawings(drawings), [drawings]);
  return { drawings: drawings ?? [], player: useDrawingPlayback(items).player };
}

function DrawingsEditor({ id }: { id: string }) {
  const { t } = useTranslation('drawing');
  const detail = useAdminBestCase(id).data;
  const loaded = useBestCaseDrawings(id).data;
  const drawings = useMemo(() => loaded ?? [], [loaded]);
  const items = useMemo(() => asPlayedDrawings(loaded), [loaded]);
  const playback = useDrawingPlayback(items);
  const video = playback.video;
  const frameTime = usePresentedFrame(video);
  const editor = useDrawingEditor();
  const add = useAddBestCaseDrawing(id);
  const remove = useDeleteBestCaseDrawing(id);
  const [composing, setComposing] = useState<number | null>(null);
  const [note, setNote] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [seekRequest, setSeekRequest] = useState<{ time: number } | null>(null);
  // Set at once: a second click in the same instant finds it (isPending follows a render later).
  const sending = useRef(false);

  const start = () => {
    if (!video) return;
    video.pause();
    editor.reset();
    setNote('');
    setError(null);
    setComposing(frameTime());
  };
  const save = () => {
    if (composing === null || sending.current) return;
    sending.current = true;
    add.mutate(
      { note, drawing: { time: composing, shapes: editor.shapes } },
      {
        onSuccess: () => setComposing(null),
        onError: (e) => setError(errorText(e)),
        onSettled: () => {
          sending.current = false;
        },
      },
    );
  };

  if (!detail) return <CircularProgress aria-label={t('drawHere')} />;
  return (
    <Box sx={{ display: 'grid', gap: 2 }}>
      {detail.videoUrl && (
        <VideoPlayer
          videoUrl={detail.videoUrl}
          posterUrl={detail.posterUrl}
          storyboard={detail.storyboard}
          title={detail.titleEn}
          onUrlsExpired={() => undefined}
          seekRequest={seekRequest}
          onMediaElement={playback.player.onMediaElement}
          overlay={composing !== null ? <DrawingSurface video={video} editor={editor} /> : playback.player.overlay}
          caption={composing !== null ? null : playback.player.caption}
        />
      )}
      {composing === null ? (
        <Button
          variant="outlined"
          startIcon={<Draw aria-hidden />}
          onClick={start}
          disabled={!video}
          sx={{ justifySelf: 'start' }}
          data-testid="drawing-start"
        >
          {t('drawHere')}
        </Button>
      ) : (
        <Paper variant="outlined" sx={{ p: 2, borderRadius: 2, display: 'grid', gap: 1.5 }} data-testid="drawing-composer">
          <Typography variant="h3" component="h3">
            {t('composerTitle', { time: formatTimecode(composing) })}
          </Typography>
          <DrawingToolbar editor={editor} />
          <TextField
            label={t('note')}
            value={note}
            onChange={(e) => setNote(e.target.value)}
            multiline
            minRows={2}
            required
            slotProps={{ htmlInput: { maxLength: 1000, 'data-testid': 'drawing-comment-text' } }}
          />
          {error && <Alert severity="error">{error}</Alert>}
          <Box sx={{ display: 'flex', gap: 1, justifyContent: 'flex-end', flexWrap: 'wrap' }}>
            <Button onClick={() => setComposing(null)} disabled={add.isPending}>
              {t('cancel')}
            </Button>
            <Button
              variant="contained"
              onClick={save}
              disabled={add.isPending || !note.trim() || !editor.shapes.length}
              startIcon={add.isPending ? <CircularProgress size={18} color="inherit" aria-hidden /> : undefined}
              data-testid="drawing-save"
            >
              {t('saveNote')}
            </Button>
          </Box>
        </Paper>
      )}
      <TeachingDrawingList
        drawings={drawings}
        onSeek={(time) => setSeekRequest({ time })}
        onDelete={(drawingId) => remove.mutate(drawingId, { onError: (e) => setError(errorText(e)) })}
        deleting={remove.isPending}
      />
    </Box>
  );
}

/** The administrator's teaching drawings on frames of a best case. */
export function BestCaseDrawingsDialog({ id, onClose }: { id: string | null; onClose(): void }) {
  const { t } = useTranslation(['drawing', 'best-cases']);
  const fullScreen = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'));
  return (
    <Dialog open={!!id} onClose={onClose} fullScreen={fullScreen} maxWidth="md" fullWidth aria-labelledby="best-case-drawings-dialog-title">
      <DialogTitle id="best-case-drawings-dialog-title">{t('drawing:dialogTitle')}</DialogTitle>
      <DialogContent dividers>{id && <DrawingsEditor id={id} />}</DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('drawing:close')}</Button>
      </DialogActions>
    </Dialog>
  );
}
