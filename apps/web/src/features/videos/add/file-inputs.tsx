import { useEffect, useMemo, useRef, useState, type ChangeEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useController, type Control } from 'react-hook-form';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import FormHelperText from '@mui/material/FormHelperText';
import IconButton from '@mui/material/IconButton';
import Typography from '@mui/material/Typography';
import AddPhotoAlternateOutlined from '@mui/icons-material/AddPhotoAlternateOutlined';
import CloseRounded from '@mui/icons-material/CloseRounded';
import MovieOutlined from '@mui/icons-material/MovieOutlined';
import { fileTooBigMessage, formatBytes } from '@sutura/domain/errors';
import { isErrorCode } from '@/lib/error-codes';
import { PICTURE_MAX_BYTES } from '@sutura/domain/limits';
import { currentLanguage } from '@/lib/i18n';
import { checkVideoFile } from '@/lib/video-file-check';
import type { AddVideoFormValues } from '@/features/videos/add/add-video-values';
import { VIDEO_ACCEPT } from '@/features/videos/add/video-accept';

/** A field message: a catalogue code, a key of this feature, or a text ready to show. */
export function useFileErrorText(): (message: string | undefined) => string | undefined {
  const { t } = useTranslation(['upload', 'errors']);
  return (message) => {
    if (!message) return undefined;
    if (isErrorCode(message)) return t(`errors:${message}`);
    if (message.startsWith('upload:')) return t(message);
    return message;
  };
}

/** Previews of the chosen pictures, released when they are no longer shown. */
function usePreviews(files: readonly File[]): string[] {
  const urls = useMemo(() => files.map((file) => URL.createObjectURL(file)), [files]);
  useEffect(() => () => urls.forEach((url) => URL.revokeObjectURL(url)), [urls]);
  return urls;
}

export function PicturesInput({ control, required }: { control: Control<AddVideoFormValues>; required: boolean }) {
  const { t } = useTranslation('upload');
  const errorText = useFileErrorText();
  const {
    // The form focuses the button on an error: the file input itself is hidden.
    field: { ref: buttonRef, name, value: pictures, onChange, onBlur },
    fieldState,
  } = useController({ control, name: 'pictures' });
  const input = useRef<HTMLInputElement>(null);
  const previews = usePreviews(pictures);
  const message = errorText(fieldState.error?.message);
  const [refused, setRefused] = useState<string | null>(null);

  const add = (event: ChangeEvent<HTMLInputElement>) => {
    const chosen = Array.from(event.target.files ?? []);
    // The same file may be chosen again after being removed.
    event.target.value = '';
    const images = chosen.filter((file) => file.type.startsWith('image/'));
    const tooBig = images.find((file) => file.size > PICTURE_MAX_BYTES);
    const accepted = images.filter((file) => file.size <= PICTURE_MAX_BYTES);
    // Refused before anything is sent: not an image, or over the size limit of a picture.
    setRefused(
      tooBig
        ? fileTooBigMessage(tooBig.name, PICTURE_MAX_BYTES, currentLanguage())
        : images.length < chosen.length
          ? t('pictures.notImages')
          : null,
    );
    if (accepted.length > 0) onChange([...pictures, ...accepted]);
  };

  const remove = (index: number) => onChange(pictures.filter((_, i) => i !== index));
  const helpId = 'pictures-help';
  const errorId = 'pictures-error';
  const shownError = message ?? refused ?? undefined;

  return (
    <Box>
      <Typography id={helpId} variant="body2" color="text.secondary" sx={{ mb: 1.5 }}>
        {t(required ? 'pictures.helpRequired' : 'pictures.help', { max: formatBytes(PICTURE_MAX_BYTES, currentLanguage()) })}
      </Typography>
      <Button
        ref={buttonRef}
        variant="outlined"
        startIcon={<AddPhotoAlternateOutlined aria-hidden />}
        onClick={() => input.current?.click()}
        onBlur={onBlur}
        aria-describedby={shownError ? `${helpId} ${errorId}` : helpId}
        data-testid="pictures-button"
      >
        {t('pictures.add')}
      </Button>
      <input
        ref={input}
        type="file"
        accept="image/*"
        multiple
        hidden
        name={name}
        aria-label={t('pictures.add')}
        onChange={add}
        data-testid="pictures-input"
      />
      {shownError && (
        <FormHelperText id={errorId} error role="alert">
          {shownError}
        </FormHelperText>
      )}
      {pictures.length > 0 && (
        <Box
          component="ul"
          aria-label={t('pictures.listLabel', { count: pictures.length })}
          sx={{
            display: 'grid',
            gridTemplateColumns: 'repeat(auto-fill, minmax(120px, 1fr))',
            gap: 1.5,
            p: 0,
            m: 0,
            mt: 2,
            listStyle: 'none',
          }}
        >
          {pictures.map((picture, index) => (
            <Box
              component="li"
              key={`${index}-${picture.size}-${picture.lastModified}`}
              sx={{ position: 'relative', borderRadius: 1, overflow: 'hidden', border: 1, borderColor: 'divider' }}
            >
              <Box
                component="img"
                src={previews[index]}
                alt={t('pictures.alt', { index: index + 1 })}
                sx={{ display: 'block', width: '100%', aspectRatio: '4 / 3', objectFit: 'cover', bgcolor: 'action.hover' }}
              />
              <Typography variant="caption" sx={{ display: 'block', px: 1, py: 0.5 }}>
                {t('pictures.caption', { index: index + 1, size: formatBytes(picture.size, currentLanguage()) })}
              </Typography>
              <IconButton
                size="small"
                onClick={() => remove(index)}
                aria-label={t('pictures.remove', { index: index + 1 })}
                sx={{
                  position: 'absolute',
                  top: 4,
                  right: 4,
                  bgcolor: 'background.paper',
                  boxShadow: 1,
                  '&:hover': { bgcolor: 'background.paper' },
                }}
              >
                <CloseRounded fontSize="small" />
              </IconButton>
            </Box>
          ))}
        </Box>
      )}
    </Box>
  );
}

/** `onChosen` checks the file at once, so an oversized one is refused before the form is sent. */
export function VideoFileInput({
  control,
  maxBytes,
  onChosen,
}: {
  control: Control<AddVideoFormValues>;
  maxBytes: number;
  onChosen: () => void;
}) {
  const { t } = useTranslation(['upload', 'case-file', 'errors']);
  const errorText = useFileErrorText();
  const {
    field: { ref: buttonRef, name, value: file, onChange, onBlur },
    fieldState,
  } = useController({ control, name: 'videoFile' });
  const input = useRef<HTMLInputElement>(null);
  const [checking, setChecking] = useState(false);
  const [refused, setRefused] = useState<string | null>(null);
  const message = refused ?? errorText(fieldState.error?.message);
  const lang = currentLanguage();
  const helpId = 'video-file-help';
  const errorId = 'video-file-error';

  // A file that is not a video is refused here, before the case is saved and any byte is sent.
  const choose = async (event: ChangeEvent<HTMLInputElement>) => {
    const chosen = event.target.files?.[0];
    event.target.value = '';
    if (!chosen) return;
    setChecking(true);
    const refusal = await checkVideoFile(chosen).finally(() => setChecking(false));
    if (refusal) {
      setRefused(t('videoFileRefused', { ns: 'case-file', name: chosen.name, reason: t(`errors:${refusal}`) }));
      onChange(null);
      return;
    }
    setRefused(null);
    onChange(chosen);
    onChosen();
  };

  return (
    <Box>
      <Typography id={helpId} variant="body2" color="text.secondary" sx={{ mb: 1.5 }}>
        {t('videoFile.help', { max: formatBytes(maxBytes, lang) })}
      </Typography>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5, flexWrap: 'wrap' }}>
        <Button
          ref={buttonRef}
          variant={file ? 'outlined' : 'contained'}
          // Not disabled while the file is checked: a disabled button would drop the keyboard's focus to the page.
          aria-disabled={checking || undefined}
          startIcon={checking ? <CircularProgress size={18} color="inherit" aria-hidden /> : <MovieOutlined aria-hidden />}
          onClick={() => !checking && input.current?.click()}
          onBlur={onBlur}
          aria-describedby={message ? `${helpId} ${errorId}` : helpId}
          data-testid="video-file-button"
        >
          {checking ? t('case-file:checking') : t(file ? 'videoFile.change' : 'videoFile.choose')}
        </Button>
        <input
          ref={input}
          type="file"
          accept={VIDEO_ACCEPT}
          hidden
          name={name}
          aria-label={t('videoFile.choose')}
          onChange={(e) => void choose(e)}
          data-testid="video-file-input"
        />
        {file && (
          <Box sx={{ display: 'flex', alignItems: 'center', gap: 0.5, minWidth: 0 }}>
            <Typography sx={{ fontWeight: 700, overflowWrap: 'anywhere' }} data-testid="video-file-name">
              {file.name}
            </Typography>
            <Typography color="text.secondary" sx={{ whiteSpace: 'nowrap' }}>
              ({formatBytes(file.size, lang)})
            </Typography>
            <IconButton size="small" onClick={() => onChange(null)} aria-label={t('videoFile.remove')}>
              <CloseRounded fontSize="small" />
            </IconButton>
          </Box>
        )}
      </Box>
      {message && (
        <FormHelperText id={errorId} error role="alert">
          {message}
        </FormHelperText>
      )}
    </Box>
  );
}
