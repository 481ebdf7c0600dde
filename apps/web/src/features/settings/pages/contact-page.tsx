import { useTranslation } from 'react-i18next';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { z } from 'zod';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Send from '@mui/icons-material/Send';
import { LAYOUT, CONTACT_MESSAGE_MAX } from '@sutura/domain/limits';
import { CONTACT_SUBJECTS, contactBody } from '@sutura/domain/users';
import { ApiRequestError, errorText } from '@/lib/http';
import { useToast } from '@/lib/toast';
import { applyApiFieldErrors, TextFieldControl } from '@/components/form-field';
import { PendingButton } from '@/components/pending-button';
import { useSingleFlight } from '@/lib/single-flight';
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

  const submit = useSingleFlight(
    handleSubmit(async (body) => {
      try {
        await send.mutateAsync(body);
        toast('success', t('contact.sent'));
        reset();
      } catch (error) {
        if (error instanceof ApiRequestError && applyApiFieldErrors(error, setError)) return;
        toast('error', errorText(error));
      }
    }),
  );

  return (
    <SettingsPage path="/settings/contact" intro={t('contact.intro')} maxWidth={LAYOUT.formMaxWidth + 2 * LAYOUT.formPadding}>
      <Paper
        variant="outlined"
        component="form"
        noValidate
        onSubmit={(e) => void submit.run(e)}
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
        <PendingButton
          type="submit"
          variant="contained"
          fullWidth
          pending={submit.pending}
          icon={<Send aria-hidden />}
          data-testid="contact-submit"
          sx={{ mt: 2 }}
        >
          {t('contact.submit')}
        </PendingButton>
      </Paper>
    </SettingsPage>
  );
}
