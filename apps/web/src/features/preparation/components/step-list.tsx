import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import Autocomplete from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import Paper from '@mui/material/Paper';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import ArrowDownward from '@mui/icons-material/ArrowDownward';
import ArrowUpward from '@mui/icons-material/ArrowUpward';
import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import { MAX_STEPS, STEP_NAME_MAX } from '@sutura/domain/preparation';
import type { PreparationEditor } from '@/features/preparation/hooks/use-preparation-editor';
import type { Step } from '@/features/preparation/model/steps';
import { formatTimecode } from '@/features/preparation/model/timecode';

type Vocabulary = readonly { id: string; name: string; position: number }[];

/**
 * A step's name: one of the surgery's steps (in the reader's language) or any text. The change is
 * kept when the field is left or an option is picked, so typing a name is one undo step.
 */
function StepNameField({
  step,
  index,
  vocabulary,
  onName,
}: {
  step: Step;
  index: number;
  vocabulary: Vocabulary;
  onName(name: { surgeryStepId: string | null; name: string }): void;
}) {
  const { t } = useTranslation('editor');
  const [text, setText] = useState(step.name);
  const [shown, setShown] = useState(step.name);
  // The step was renamed elsewhere (undo): the field follows.
  if (shown !== step.name) {
    setShown(step.name);
    setText(step.name);
  }
  const commit = (value: string) => {
    const name = value.trim().slice(0, STEP_NAME_MAX);
    // Left as it was: a step named by a term retired since (no longer offered) keeps it.
    if (step.surgeryStepId && name === step.name) return;
    const known = vocabulary.find((v) => v.name.toLocaleLowerCase() === name.toLocaleLowerCase());
    const next = known ? { surgeryStepId: known.id, name: known.name } : { surgeryStepId: null, name };
    if (next.name !== step.name || next.surgeryStepId !== step.surgeryStepId) onName(next);
  };
  return (
    <Autocomplete
      freeSolo
      size="small"
      options={vocabulary.map((v) => v.name)}
      inputValue={text}
      onInputChange={(_, value, reason) => {
        setText(value);
        if (reason === 'selectOption') commit(value);
      }}
      onBlur={() => commit(text)}
      renderInput={(params) => (
        <TextField
          {...params}
          label={t('steps.name', { number: index + 1 })}
          error={step.name.trim() === ''}
          slotProps={{
            ...params.slotProps,
            htmlInput: { ...params.slotProps.htmlInput, maxLength: STEP_NAME_MAX, 'data-testid': 'step-name' },
          }}
        />
      )}
    />
  );
}

interface StepListProps {
  editor: PreparationEditor;
  vocabulary: Vocabulary;
  selected: string | null;
  onSelect(key: string): void;
}

/** The steps in their order: name, times, reorder and delete. */
export function StepList({ editor, vocabulary, selected, onSelect }: StepListProps) {
  const { t } = useTranslation('editor');
  const time = (s: number) => formatTimecode(s, editor.fps);
  const { steps } = editor;
  return (
    <Paper variant="outlined" sx={{ p: 2, borderRadius: 2 }}>
      <Typography variant="h3" component="h2">
        {t('steps.title')}
      </Typography>
      <Typography variant="body2" sx={{ color: 'text.secondary', mb: 1.5 }} data-testid="step-count">
        {t('steps.count', { count: steps.length, max: MAX_STEPS })}
      </Typography>
      {steps.length === 0 && (
        <Typography variant="body2" sx={{ color: 'text.secondary' }}>
          {t('steps.empty')}
        </Typography>
      )}
      <Box component="ol" sx={{ m: 0, p: 0, listStyle: 'none', display: 'grid', gap: 1.5 }} data-testid="step-list">
        {steps.map((step, index) => (
          <Box
            component="li"
            key={step.key}
            data-testid="step-item"
            onFocus={() => selected !== step.key && onSelect(step.key)}
            sx={{
              p: 1,
              borderRadius: 1,
              border: 1,
              borderColor: step.key === selected ? 'secondary.main' : 'divider',
              display: 'grid',
              gap: 0.5,
            }}
          >
            <StepNameField step={step} index={index} vocabulary={vocabulary} onName={(name) => editor.nameStep(step.key, name)} />
            <Box sx={{ display: 'flex', alignItems: 'center', gap: 0.5 }}>
              <Box
                component="button"
                type="button"
                onClick={() => onSelect(step.key)}
                sx={{
                  all: 'unset',
                  cursor: 'pointer',
                  flex: 1,
                  fontVariantNumeric: 'tabular-nums',
                  fontSize: 14,
                  '&:focus-visible': { outline: '2px solid', outlineColor: 'primary.main' },
                }}
                aria-label={t('steps.goTo', {
                  number: index + 1,
                  range: t('trims.range', { start: time(step.start), end: time(step.end) }),
                })}
              >
                {t('trims.range', { start: time(step.start), end: time(step.end) })}
              </Box>
              <IconButton
                size="small"
                aria-label={t('steps.up', { number: index + 1 })}
                disabled={index === 0}
                onClick={() => editor.moveStepInList(step.key, -1)}
              >
                <ArrowUpward fontSize="small" />
              </IconButton>
              <IconButton
                size="small"
                aria-label={t('steps.down', { number: index + 1 })}
                disabled={index === steps.length - 1}
                onClick={() => editor.moveStepInList(step.key, 1)}
              >
                <ArrowDownward fontSize="small" />
              </IconButton>
              <IconButton
                size="small"
                aria-label={t('steps.delete', { number: index + 1 })}
                onClick={() => editor.removeStep(step.key)}
                data-testid="step-delete"
              >
                <DeleteOutlined fontSize="small" />
              </IconButton>
            </Box>
          </Box>
        ))}
      </Box>
    </Paper>
  );
}
