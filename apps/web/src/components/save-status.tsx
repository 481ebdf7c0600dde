import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import CheckCircleOutlined from '@mui/icons-material/CheckCircleOutlined';
import CloudOffOutlined from '@mui/icons-material/CloudOffOutlined';
import EditOutlined from '@mui/icons-material/EditOutlined';
import ErrorOutlined from '@mui/icons-material/ErrorOutlined';
import type { SaveStatus } from '@/lib/use-autosave';

const ICONS: Record<SaveStatus, React.ReactNode> = {
  saved: <CheckCircleOutlined fontSize="small" color="primary" />,
  pending: <EditOutlined fontSize="small" />,
  saving: <CircularProgress size={16} />,
  offline: <CloudOffOutlined fontSize="small" color="warning" />,
  lost: <ErrorOutlined fontSize="small" color="error" />,
};

/** Whether the server holds what is on screen, always in view (autosave). */
export function SaveStatusLabel({ status }: { status: SaveStatus }) {
  const { t } = useTranslation('editor');
  return (
    <Box
      role="status"
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
    </Box>
  );
}
