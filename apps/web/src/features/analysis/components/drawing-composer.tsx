import { useLayoutEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import Draw from '@mui/icons-material/DrawOutlined';
import Paper from '@mui/material/Paper';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { ANALYSIS_LIMITS, formatTimecode, type AnalysisComment } from '@sutura/domain/analysis';
import { errorText } from '@/lib/http';
import { DrawingToolbar } from '@/components/drawing/drawing-toolbar';
import type { DrawingEditorState } from '@/components/drawing/use-drawing-editor';
import { useAddComment, useUpdateComment } from '@/features/analysis/api/analysis';

/**
 * The expert's drawing on a paused frame, attached to a new time-coded comment: the comment starts
 * at the frame (to the tenth of a second below it) and the drawing keeps the frame's exact time.
 * With `comment`, a saved comment's drawing opened again: its shapes and text are changed in place,
 * its times stay.
 */
export function DrawingComposer({
  videoId,
  fencingToken,
  time,
  comment = null,
  editor,
  onClose,
}: {
  videoId: string;
  fencingToken: number;
  time: number;
  comment?: AnalysisComment | null;
  editor: DrawingEditorState;
  onClose(): void;
}) {
  const { t } = useTranslation('drawing');
  const add = useAddComment(videoId);
  const update = useUpdateComment(videoId);
  const pending = add.isPending || update.isPending;
  const [text, setText] = useState(comment?.text ?? '');
  const section = useRef<HTMLElement>(null);
  // The keyboard goes to the tools as they open (the button that opened them is gone, or, from the
  // list of comments, far away), in the same commit so it never rests on the page's body; opened
  // from the list, they come into view.
  const reopened = comment !== null;
  useLayoutEffect(() => {
    if (reopened) section.current?.scrollIntoView({ block: 'nearest' });
    section.current?.focus({ preventScroll: true });
  }, [reopened]);
  const [error, setError] = useState<string | null>(null);
  // Set at once: a second click in the same instant finds it (isPending follows a render later).
  const sending = useRef(false);

  const save = () => {
    if (sending.current) return;
    if (!editor.shapes.length) return setError(t('empty'));
    sending.current = true;
    setError(null);
    const done = {
      onSuccess: onClose,
      onError: (e: unknown) => setError(errorText(e)),
      onSettled: () => {
        sending.current = false;
      },
    };
    const drawing = { time, shapes: editor.shapes };
    if (comment) {
      update.mutate({ commentId: comment.id, body: { fencingToken, start: comment.start, end: comment.end, text, drawing } }, done);
    } else {
      add.mutate({ fencingToken, start: Math.floor(time * 10) / 10, end: null, text, drawing }, done);
    }
  };

  return (
    <Paper
      variant="outlined"
      sx={{ p: { xs: 1.5, sm: 2 }, borderRadius: 2, display: 'grid', gap: { xs: 1, sm: 1.5 } }}
      data-testid="drawing-composer"
      component="section"
      aria-labelledby="drawing-composer-title"
      ref={section}
      tabIndex={-1}
      data-editing={comment ? comment.id : undefined}
    >
      <Typography id="drawing-composer-title" variant="h3" component="h3">
        {t(comment ? 'composerEditTitle' : 'composerTitle', { time: formatTimecode(time) })}
      </Typography>
      {/* On a phone the help comes last: the tools and the comment stay next to the frame. */}
      <Typography variant="body2" sx={{ color: 'text.secondary', order: { xs: 1, sm: 0 } }}>
        {t('composerHelp')}
      </Typography>
      <DrawingToolbar editor={editor} />
      <TextField
        label={t('comment')}
        value={text}
        onChange={(e) => setText(e.target.value)}
        multiline
        minRows={2}
        required
        slotProps={{ htmlInput: { maxLength: ANALYSIS_LIMITS.commentMax, 'data-testid': 'drawing-comment-text' } }}
      />
      {error && <Alert severity="error">{error}</Alert>}
      <Box sx={{ display: 'flex', gap: 1, justifyContent: 'flex-end', flexWrap: 'wrap' }}>
        <Button onClick={onClose} disabled={pending} data-testid="drawing-cancel">
          {t('cancel')}
        </Button>
        <Button
          variant="contained"
          onClick={save}
          // While it saves it keeps the keyboard's focus (aria-disabled), until the tools close.
          disabled={!pending && (text.trim() === '' || editor.shapes.length === 0)}
          aria-disabled={pending || undefined}
          startIcon={pending ? <CircularProgress size={18} color="inherit" aria-hidden /> : undefined}
          data-testid="drawing-save"
        >
          {t(comment ? 'saveChanges' : 'save')}
        </Button>
      </Box>
    </Paper>
  );
}

/** Beside a comment that carries a drawing. */
export function DrawingChip() {
  const { t } = useTranslation('drawing');
  return (
    <Chip
      size="small"
      variant="outlined"
      icon={<Draw aria-hidden />}
      label={t('withDrawing')}
      sx={{ mt: 0.5 }}
      data-testid="comment-has-drawing"
    />
  );
}
