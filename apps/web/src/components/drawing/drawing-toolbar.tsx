import { useEffect, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import TextField from '@mui/material/TextField';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Tooltip from '@mui/material/Tooltip';
import ArrowOutward from '@mui/icons-material/ArrowOutward';
import CircleOutlined from '@mui/icons-material/CircleOutlined';
import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import Gesture from '@mui/icons-material/Gesture';
import HorizontalRule from '@mui/icons-material/HorizontalRule';
import NearMeOutlined from '@mui/icons-material/NearMeOutlined';
import Redo from '@mui/icons-material/Redo';
import TextFields from '@mui/icons-material/TextFields';
import Undo from '@mui/icons-material/Undo';
import { DRAWING_COLOR_HEX, DRAWING_COLORS, DRAWING_LIMITS, type DrawingColor } from '@sutura/domain/drawing';
import type { DrawingEditorState, EditorTool } from '@/components/drawing/use-drawing-editor';

const TOOLS: { tool: EditorTool; icon: ReactNode }[] = [
  { tool: 'select', icon: <NearMeOutlined /> },
  { tool: 'freehand', icon: <Gesture /> },
  { tool: 'arrow', icon: <ArrowOutward /> },
  { tool: 'ellipse', icon: <CircleOutlined /> },
  { tool: 'line', icon: <HorizontalRule /> },
  { tool: 'text', icon: <TextFields /> },
];

/** Ctrl+Z undoes, Ctrl+Shift+Z (or Ctrl+Y) redoes, anywhere on the page but in a text field. */
export function useUndoShortcuts(editor: DrawingEditorState, active: boolean) {
  const { undo, redo } = editor;
  useEffect(() => {
    if (!active) return;
    const onKey = (e: KeyboardEvent) => {
      if (!(e.ctrlKey || e.metaKey) || e.altKey) return;
      const target = e.target as HTMLElement | null;
      if (target?.closest('input, textarea, [contenteditable="true"]')) return;
      const key = e.key.toLowerCase();
      if (key === 'z' && !e.shiftKey) undo();
      else if ((key === 'z' && e.shiftKey) || key === 'y') redo();
      else return;
      e.preventDefault();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [active, undo, redo]);
}

/**
 * The drawing tools: select, freehand, arrow, circle or ellipse, line and text label; the
 * colours; undo, redo and delete. Every button has a name and is reached with Tab.
 */
export function DrawingToolbar({ editor }: { editor: DrawingEditorState }) {
  const { t } = useTranslation('drawing');
  useUndoShortcuts(editor, true);
  const selected = editor.selected;
  return (
    <Box sx={{ display: 'grid', gap: 1 }} data-testid="drawing-toolbar">
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, alignItems: 'center' }}>
        <ToggleButtonGroup
          exclusive
          size="small"
          value={editor.tool}
          onChange={(_, tool: EditorTool | null) => tool && editor.setTool(tool)}
          aria-label={t('toolsLabel')}
        >
          {TOOLS.map(({ tool, icon }) => (
            <Tooltip key={tool} title={t(`tools.${tool}`)}>
              <ToggleButton
                value={tool}
                aria-label={t(`tools.${tool}`)}
                data-testid={`drawing-tool-${tool}`}
                sx={{ minWidth: 44, minHeight: 44 }}
              >
                {icon}
              </ToggleButton>
            </Tooltip>
          ))}
        </ToggleButtonGroup>
        <ToggleButtonGroup
          exclusive
          size="small"
          value={editor.color}
          onChange={(_, color: DrawingColor | null) => color && editor.setColor(color)}
          aria-label={t('colorsLabel')}
        >
          {DRAWING_COLORS.map((color) => (
            <Tooltip key={color} title={t(`colors.${color}`)}>
              <ToggleButton
                value={color}
                aria-label={t(`colors.${color}`)}
                data-testid={`drawing-color-${color}`}
                sx={{ minWidth: 44, minHeight: 44 }}
              >
                <Box
                  aria-hidden
                  sx={{
                    width: 20,
                    height: 20,
                    borderRadius: '50%',
                    bgcolor: DRAWING_COLOR_HEX[color],
                    border: '2px solid #000',
                    boxShadow: '0 0 0 1px #fff',
                  }}
                />
              </ToggleButton>
            </Tooltip>
          ))}
        </ToggleButtonGroup>
        <Box sx={{ display: 'flex', gap: 0.5 }}>
          <Tooltip title={`${t('undo')} (Ctrl+Z)`}>
            <span>
              <IconButton aria-label={t('undo')} onClick={editor.undo} disabled={!editor.canUndo} data-testid="drawing-undo">
                <Undo />
              </IconButton>
            </span>
          </Tooltip>
          <Tooltip title={`${t('redo')} (Ctrl+Shift+Z)`}>
            <span>
              <IconButton aria-label={t('redo')} onClick={editor.redo} disabled={!editor.canRedo} data-testid="drawing-redo">
                <Redo />
              </IconButton>
            </span>
          </Tooltip>
          <Tooltip title={t(selected === null ? 'clear' : 'deleteShape')}>
            <span>
              <IconButton
                aria-label={t(selected === null ? 'clear' : 'deleteShape')}
                onClick={() => (selected === null ? editor.clear() : editor.remove(selected))}
                disabled={!editor.shapes.length}
                data-testid="drawing-delete"
              >
                <DeleteOutlined />
              </IconButton>
            </span>
          </Tooltip>
        </Box>
      </Box>
      {editor.tool === 'text' && (
        <TextField
          size="small"
          label={t('labelText')}
          value={editor.label}
          onChange={(e) => editor.setLabel(e.target.value)}
          helperText={t('labelHint')}
          inputRef={editor.labelRef}
          slotProps={{ htmlInput: { maxLength: DRAWING_LIMITS.textMax, 'data-testid': 'drawing-label' } }}
        />
      )}
      <Box component="p" sx={{ m: 0, fontSize: 13, color: 'text.secondary' }} aria-live="polite">
        {editor.full ? t('full') : t('hint', { count: editor.shapes.length })}
      </Box>
    </Box>
  );
}
