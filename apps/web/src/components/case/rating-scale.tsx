import { useRef, useState, type KeyboardEvent } from 'react';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { RATING_LABELS, RATING_LEVELS, ratingColor, type RatingLevel } from '@sutura/domain/analysis';
import { currentLanguage } from '@/lib/i18n';

interface RatingScaleProps {
  /** Accessible name of the group (the step or the skill rated). */
  label: string;
  value: RatingLevel | null;
  onChange(value: RatingLevel): void;
  /** What each level means for this skill (GOALS), shown for the level pointed at or chosen. */
  describe?(level: RatingLevel): string;
  disabled?: boolean;
  testId: string;
}

/**
 * Five colour levels, red to dark green (SPEC §9), as a radio group: a click or a tap chooses,
 * arrows move the choice, and the keys 1 to 5 choose a level directly.
 */
export function RatingScale({ label, value, onChange, describe, disabled, testId }: RatingScaleProps) {
  const lang = currentLanguage() === 'fr' ? 'fr' : 'en';
  const [pointed, setPointed] = useState<RatingLevel | null>(null);
  const refs = useRef<(HTMLElement | null)[]>([]);
  const shown = pointed ?? value;
  const descriptionId = `${testId}-description`;

  const choose = (level: RatingLevel) => {
    if (disabled) return;
    onChange(level);
    refs.current[level - 1]?.focus();
  };

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const digit = Number(event.key);
    if (Number.isInteger(digit) && digit >= 1 && digit <= 5) {
      event.preventDefault();
      choose(digit as RatingLevel);
      return;
    }
    const current = value ?? 0;
    const next =
      event.key === 'ArrowRight' || event.key === 'ArrowUp'
        ? Math.min(5, current + 1)
        : event.key === 'ArrowLeft' || event.key === 'ArrowDown'
          ? Math.max(1, current - 1)
          : event.key === 'Home'
            ? 1
            : event.key === 'End'
              ? 5
              : null;
    if (next === null) return;
    event.preventDefault();
    choose(next as RatingLevel);
  };

  return (
    <Box sx={{ display: 'grid', gap: 0.75 }}>
      <Box
        role="radiogroup"
        aria-label={label}
        aria-describedby={describe ? descriptionId : undefined}
        aria-disabled={disabled || undefined}
        data-testid={testId}
        data-value={value ?? ''}
        onKeyDown={onKeyDown}
        sx={{ display: 'grid', gridTemplateColumns: 'repeat(5, minmax(0, 1fr))', gap: 0.75, maxWidth: 520 }}
      >
        {RATING_LEVELS.map((level) => {
          const checked = value === level;
          const color = ratingColor(level);
          return (
            <Box
              key={level}
              ref={(node: HTMLElement | null) => {
                refs.current[level - 1] = node;
              }}
              role="radio"
              aria-checked={checked}
              aria-label={`${level} · ${RATING_LABELS[level][lang]}`}
              // Roving focus: the chosen level (or the first) is the one Tab reaches.
              tabIndex={disabled ? -1 : checked || (value === null && level === 1) ? 0 : -1}
              onClick={() => choose(level)}
              onPointerEnter={() => setPointed(level)}
              onPointerLeave={() => setPointed(null)}
              onFocus={() => setPointed(level)}
              onBlur={() => setPointed(null)}
              data-level={level}
              sx={{
                minHeight: 44,
                borderRadius: 1.5,
                display: 'grid',
                placeItems: 'center',
                cursor: disabled ? 'default' : 'pointer',
                fontWeight: 700,
                fontSize: 15,
                userSelect: 'none',
                border: '2px solid',
                borderColor: color,
                bgcolor: checked ? color : 'transparent',
                color: checked ? (level >= 5 ? '#fff' : '#1B1B1B') : 'text.primary',
                boxShadow: checked ? `0 0 0 2px ${color}` : 'none',
                opacity: disabled && !checked ? 0.6 : 1,
                '&:focus-visible': { outline: '3px solid', outlineColor: 'primary.main', outlineOffset: 2 },
              }}
            >
              {level}
            </Box>
          );
        })}
      </Box>
      <Typography
        id={descriptionId}
        variant="body2"
        sx={{ minHeight: describe ? 40 : 20, maxWidth: 720 }}
        aria-live="polite"
        data-testid={`${testId}-goals`}
      >
        {shown && (
          <>
            <Box component="span" sx={{ fontWeight: 700 }}>
              {RATING_LABELS[shown][lang]}
            </Box>
            {describe ? ` — ${describe(shown)}` : ''}
          </>
        )}
      </Typography>
    </Box>
  );
}
