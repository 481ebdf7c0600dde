import { useTranslation } from 'react-i18next';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { z } from 'zod';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Send from '@mui/icons-material/Send';
import { LAYOUT, CONTACT_MESSAGE_MAX } from '@sutura/domain/limits';
import { CONTACT_SUBJECTS, contactBody } from '@sutura/domain/users';
import { ApiRequestError, errorText } from '@/lib/http';
import { useToast } from '@/lib/toast';
import { applyApiFieldErrors, TextFieldControl } from '@/components/form-field';
import { SettingsPage } from '@/features/settings/components/settings-page';
import { useSendContactMessage } from '@/features/settings/api/contact';

type ContactInput = z.input<typeof contactBody>;
type ContactOutput = z.output<typeof contactBody>;

/** `/settings/contact`: a message to the support team of this installation. */
export function ContactPage() {
  const { t } = useTranslation('settings');
  const toast = useToast();
  const send = useSendContactMessage();
  const { control, handleSubmit, reset, setError } = useForm<ContactInput, unknown, ContactOutput>({
    resolver: zodResolver(contactBody),
    defaultValues: { subject: '' as ContactInput['subject'], message: '' },
  });

  const onSubmit = handleSubmit(async (body) => {
    try {
      await send.mutateAsync(body);
      toast('success', t('contact.sent'));
      reset();
    } catch (error) {
      if (error instanceof ApiRequestError && applyApiFieldErrors(error, setError)) return;
      toast('error', errorText(error));
    }
  });

  return (
    <SettingsPage path="/settings/contact" intro={t('contact.intro')} maxWidth={LAYOUT.formMaxWidth + 2 * LAYOUT.formPadding}>
      <Paper
        variant="outlined"
        component="form"
        noValidate
        onSubmit={(e) => void onSubmit(e)}
        aria-label={t('contact.formLabel')}
        sx={{ p: `${LAYOUT.formPadding}px` }}
      >
        <TextFieldControl control={control} name="subject" label={t('contact.subject')} select required data-testid="contact-subject">
          {CONTACT_SUBJECTS.map((subject) => (
            <MenuItem key={subject} value={subject}>
              {t(`contact.subjects.${subject}`)}
            </MenuItem>
          ))}
        </TextFieldControl>
        <TextFieldControl
          control={control}
          name="message"
          label={t('contact.message')}
          required
          multiline
          minRows={6}
          maxChars={CONTACT_MESSAGE_MAX}
          slotProps={{ htmlInput: { 'data-testid': 'contact-message' } as object }}
        />
        <Button
          type="submit"
          variant="contained"
          fullWidth
          disabled={send.isPending}
          startIcon={send.isPending ? <CircularProgress size={18} color="inherit" /> : <Send aria-hidden />}
          data-testid="contact-submit"
          sx={{ mt: 2 }}
        >
          {t('contact.submit')}
        </Button>
      </Paper>
    </SettingsPage>
  );
}
