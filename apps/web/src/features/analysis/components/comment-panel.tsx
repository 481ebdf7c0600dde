import { useLayoutEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import IconButton from '@mui/material/IconButton';
import Paper from '@mui/material/Paper';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import AddComment from '@mui/icons-material/AddCommentOutlined';
import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import Draw from '@mui/icons-material/DrawOutlined';
import EditOutlined from '@mui/icons-material/EditOutlined';
import { ANALYSIS_LIMITS, formatTimecode, type AnalysisComment } from '@sutura/domain/analysis';
import { errorText } from '@/lib/http';
import { useAddComment, useDeleteComment, useUpdateComment } from '@/features/analysis/api/analysis';
import { DrawingChip } from '@/features/analysis/components/drawing-composer';

interface Editing {
  id: string | null;
  start: number;
  end: number | null;
  text: string;
}

interface CommentPanelProps {
  videoId: string;
  comments: AnalysisComment[];
  /** The playhead, where a new comment starts. */
  current: number;
  fencingToken: number | null;
  readOnly: boolean;
  onSeek(time: number): void;
  /** Opens a comment's drawing again on its frame (null while one is open, or without the tools). */
  onEditDrawing?: ((comment: AnalysisComment) => void) | null;
}

/** Time-coded comments: added at the playhead (a range when an end is set), edited, deleted; a click seeks. */
export function CommentPanel({ videoId, comments, current, fencingToken, readOnly, onSeek, onEditDrawing = null }: CommentPanelProps) {
  const { t } = useTranslation(['analysis', 'drawing']);
  const add = useAddComment(videoId);
  const update = useUpdateComment(videoId);
  const remove = useDeleteComment(videoId);
  const [editing, setEditing] = useState<Editing | null>(null);
  const [error, setError] = useState<string | null>(null);
  const pending = add.isPending || update.isPending;
  // Where the keyboard goes when the form closes: the comment saved, or the add button after a cancel.
  // Moved in the same commit as the form goes (a layout effect), so it never rests on the page's body;
  // a comment not in the list yet has the add button meanwhile.
  const [focusTo, setFocusTo] = useState<string | null>(null);
  const panel = useRef<HTMLElement>(null);
  useLayoutEffect(() => {
    if (!focusTo || editing) return;
    const add = panel.current?.querySelector<HTMLElement>('[data-testid="comment-add"]');
    const target =
      focusTo === 'add'
        ? add
        : panel.current?.querySelector<HTMLElement>(`[data-comment-id="${CSS.escape(focusTo)}"] [data-testid="comment-seek"]`);
    if (!target) {
      add?.focus();
      return;
    }
    target.focus();
    setFocusTo(null);
  }, [focusTo, editing, comments]);

  const close = () => {
    setEditing(null);
    setFocusTo('add');
  };

  const save = () => {
    if (!editing || fencingToken === null || pending) return;
    const body = { fencingToken, start: editing.start, end: editing.end, text: editing.text };
    const done = {
      onSuccess: (comment: AnalysisComment) => {
        setEditing(null);
        setFocusTo(comment.id);
      },
      onError: (e: unknown) => setError(errorText(e)),
    };
    setError(null);
    if (editing.id) update.mutate({ commentId: editing.id, body }, done);
    else add.mutate(body, done);
  };

  const time = (c: { start: number; end: number | null }) =>
    c.end !== null ? t('comments.range', { start: formatTimecode(c.start), end: formatTimecode(c.end) }) : formatTimecode(c.start);

  return (
    <Box ref={panel} component="section" aria-labelledby="comments-title" sx={{ display: 'grid', gap: 1.5 }} data-testid="comment-panel">
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
        <Typography id="comments-title" variant="h3" component="h3" sx={{ flex: 1 }}>
          {t('comments.title', { count: comments.length })}
        </Typography>
        {!readOnly && (
          <Button
            variant="outlined"
            startIcon={<AddComment aria-hidden />}
            onClick={() => setEditing({ id: null, start: Math.round(current * 10) / 10, end: null, text: '' })}
            disabled={fencingToken === null || editing !== null || comments.length >= ANALYSIS_LIMITS.commentsMax}
            data-testid="comment-add"
          >
            {t('comments.addAt', { time: formatTimecode(current) })}
          </Button>
        )}
      </Box>
      {editing && (
        <Paper variant="outlined" sx={{ p: 2, borderRadius: 2, display: 'grid', gap: 1.5 }} data-testid="comment-form">
          <Box sx={{ display: 'flex', gap: 1, alignItems: 'center', flexWrap: 'wrap' }}>
            <Typography sx={{ fontWeight: 700 }}>{time(editing)}</Typography>
            {editing.end === null ? (
              <Button
                size="small"
                onClick={() => current > editing.start && setEditing({ ...editing, end: Math.round(current * 10) / 10 })}
                disabled={current <= editing.start}
                data-testid="comment-set-end"
              >
                {t('comments.endHere', { time: formatTimecode(current) })}
              </Button>
            ) : (
              <Button size="small" onClick={() => setEditing({ ...editing, end: null })}>
                {t('comments.noEnd')}
              </Button>
            )}
          </Box>
          <TextField
            label={t('comments.text')}
            value={editing.text}
            onChange={(e) => setEditing({ ...editing, text: e.target.value })}
            multiline
            minRows={2}
            autoFocus
            slotProps={{ htmlInput: { maxLength: ANALYSIS_LIMITS.commentMax, 'data-testid': 'comment-text' } }}
          />
          <Box sx={{ display: 'flex', gap: 1, justifyContent: 'flex-end' }}>
            <Button onClick={close} disabled={pending}>
              {t('cancel')}
            </Button>
            {/* While it saves it stays focusable (aria-disabled): disabled under the keyboard, the focus would drop to the page's body. */}
            <Button
              variant="contained"
              onClick={save}
              disabled={!pending && editing.text.trim() === ''}
              aria-disabled={pending || undefined}
              startIcon={pending ? <CircularProgress size={18} color="inherit" aria-hidden /> : undefined}
              data-testid="comment-save"
            >
              {t('comments.save')}
            </Button>
          </Box>
        </Paper>
      )}
      {error && (
        <Alert severity="error" onClose={() => setError(null)}>
          {error}
        </Alert>
      )}
      {comments.length === 0 ? (
        <Typography sx={{ color: 'text.secondary' }}>{t(readOnly ? 'comments.none' : 'comments.empty')}</Typography>
      ) : (
        <Box component="ol" sx={{ m: 0, p: 0, listStyle: 'none', display: 'grid', gap: 1 }}>
          {comments.map((comment) => (
            <Box
              component="li"
              key={comment.id}
              data-comment-id={comment.id}
              data-testid="comment-item"
              sx={{ display: 'flex', alignItems: 'flex-start', gap: 1, borderLeft: '4px solid #FFB300', pl: 1.5 }}
            >
              <Box sx={{ flex: 1, minWidth: 0 }}>
                <Button
                  size="small"
                  onClick={() => onSeek(comment.start)}
                  aria-label={t('comments.seek', { time: time(comment) })}
                  sx={{ px: 0.5, minWidth: 0, fontVariantNumeric: 'tabular-nums' }}
                  data-testid="comment-seek"
                >
                  {time(comment)}
                </Button>
                <Typography sx={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>{comment.text}</Typography>
                {comment.drawing && <DrawingChip />}
              </Box>
              {!readOnly && fencingToken !== null && (
                <>
                  {comment.drawing && (
                    <IconButton
                      aria-label={t('drawing:editDrawing', { time: formatTimecode(comment.drawing.time) })}
                      onClick={() => onEditDrawing?.(comment)}
                      disabled={!onEditDrawing || editing !== null}
                      data-testid="comment-edit-drawing"
                    >
                      <Draw />
                    </IconButton>
                  )}
                  <IconButton
                    aria-label={t('comments.edit')}
                    onClick={() => setEditing({ id: comment.id, start: comment.start, end: comment.end, text: comment.text })}
                    disabled={editing !== null}
                  >
                    <EditOutlined />
                  </IconButton>
                  <IconButton
                    aria-label={t('comments.delete')}
                    onClick={() =>
                      !remove.isPending &&
                      remove.mutate(
                        { commentId: comment.id, fencingToken },
                        // Its button is gone with it: the keyboard goes back to adding.
                        { onSuccess: () => setFocusTo('add'), onError: (e) => setError(errorText(e)) },
                      )
                    }
                    aria-disabled={remove.isPending || undefined}
                    data-testid="comment-delete"
                  >
                    <DeleteOutlined />
                  </IconButton>
                </>
              )}
            </Box>
          ))}
        </Box>
      )}
    </Box>
  );
}
