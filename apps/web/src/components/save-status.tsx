import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import CheckCircleOutlined from '@mui/icons-material/CheckCircleOutlined';
import CloudOffOutlined from '@mui/icons-material/CloudOffOutlined';
import EditOutlined from '@mui/icons-material/EditOutlined';
import ErrorOutlined from '@mui/icons-material/ErrorOutlined';
import { LiveAnnouncement } from '@/components/live-announcement';
import type { SaveStatus } from '@/lib/use-autosave';

const ICONS: Record<SaveStatus, React.ReactNode> = {
  saved: <CheckCircleOutlined fontSize="small" color="primary" />,
  pending: <EditOutlined fontSize="small" />,
  saving: <CircularProgress size={16} aria-hidden />,
  offline: <CloudOffOutlined fontSize="small" color="warning" />,
  lost: <ErrorOutlined fontSize="small" color="error" />,
};

/**
 * What a screen reader hears of the autosave: a problem (offline, not saved) once when it starts,
 * and "saved" once when it is over, never the pending and saving of every keystroke.
 */
function useSaveAnnouncement(status: SaveStatus): SaveStatus | null {
  const [announced, setAnnounced] = useState<SaveStatus | null>(null);
  const [seen, setSeen] = useState(status);
  if (seen !== status) {
    setSeen(status);
    if (status === 'offline' || status === 'lost') setAnnounced(status);
    else if (status === 'saved' && (announced === 'offline' || announced === 'lost')) setAnnounced('saved');
  }
  return announced;
}

/** Whether the server holds what is on screen, always in view (autosave). */
export function SaveStatusLabel({ status }: { status: SaveStatus }) {
  const { t } = useTranslation('editor');
  const announced = useSaveAnnouncement(status);
  return (
    <Box
      data-testid="save-status"
      data-status={status}
      sx={{
        display: 'inline-flex',
        alignItems: 'center',
        gap: 0.75,
        fontSize: 14,
        fontWeight: 700,
        color: status === 'lost' ? 'error.main' : 'text.secondary',
      }}
    >
      {ICONS[status]}
      {t(`save.${status}`)}
      <LiveAnnouncement testId="save-status-announcement" text={announced ? t(`save.${announced}`) : ''} />
    </Box>
  );
}
