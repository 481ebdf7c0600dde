import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Skeleton from '@mui/material/Skeleton';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { ApiRequestError, errorText } from '@/lib/http';
import type { SaveStatus } from '@/lib/use-autosave';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { SaveStatusLabel } from '@/components/save-status';
import { RetryAlert } from '@/components/retry-alert';

/**
 * The namespaces of the screens where a user works on a video they hold (an editor's preparation,
 * an expert's analysis); each has `back`, `cancel`, `retry`, `loading` and `notFound`.
 */
export type ClaimedWorkNamespace = 'editor' | 'analysis';

/** Why the work cannot go on here, with the way back to the user's space. */
function BackAlert({
  severity,
  back,
  backTo,
  children,
}: {
  severity: 'info' | 'error';
  back: string;
  backTo: string;
  children: ReactNode;
}) {
  return (
    <Alert
      severity={severity}
      action={
        <Button component={RouterLink} to={backTo} color="inherit" size="small">
          {back}
        </Button>
      }
    >
      {children}
    </Alert>
  );
}

/** 400/404: not this user's video; 409: their hold ran out or was taken over. */
export const isClaimGone = (error: unknown) => error instanceof ApiRequestError && [400, 404, 409].includes(error.status);

interface ClaimedWorkQuery {
  error: unknown;
  isError: boolean;
  refetch(): Promise<unknown>;
}

/**
 * What a page of held work shows instead of the work: gone from this user's hands (with the way
 * back to their space), a failed load (with a retry), or the loading skeleton.
 */
export function ClaimedWorkStatus({
  query,
  namespace,
  backTo,
  panels = 0,
}: {
  query: ClaimedWorkQuery;
  namespace: ClaimedWorkNamespace;
  backTo: string;
  /** Skeleton panels shown under the video's while it loads. */
  panels?: number;
}) {
  const { t } = useTranslation(namespace);
  if (isClaimGone(query.error)) {
    return (
      <BackAlert severity="info" back={t('back')} backTo={backTo}>
        {query.error instanceof ApiRequestError && query.error.status === 409 ? errorText(query.error) : t('notFound')}
      </BackAlert>
    );
  }
  if (query.isError) {
    return <RetryAlert error={query.error} retry={t('retry')} onRetry={() => void query.refetch()} />;
  }
  return (
    <Box role="status" aria-label={t('loading')} sx={{ display: 'grid', gap: 2 }}>
      <Skeleton variant="text" sx={{ fontSize: 28, width: '40%' }} />
      <Skeleton variant="rounded" sx={{ aspectRatio: '16 / 9', height: 'auto', maxHeight: '48vh' }} />
      {Array.from({ length: panels }, (_, i) => (
        <Skeleton key={i} variant="rounded" height={96} />
      ))}
    </Box>
  );
}

/**
 * The head of a page of held work: the surgery and organ, priority, the hours left on the lease
 * and whether the server holds what is on screen, then the page's own controls.
 */
export function ClaimedWorkHeader({
  title,
  titleTestId,
  organ,
  priorityLabel,
  leaseLabel,
  saveStatus,
  children,
}: {
  title: string;
  titleTestId: string;
  organ: string | null;
  /** Shown for a priority video only. */
  priorityLabel: string | null;
  /** Left out when the work is not held (read only). */
  leaseLabel: string | null;
  saveStatus: SaveStatus | null;
  children: ReactNode;
}) {
  const [titleShown, setTitleShown] = useState(false);
  return (
    <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1.5, rowGap: 1 }}>
      <Box sx={{ flex: '1 1 240px', minWidth: 0 }}>
        {/* One line whatever the width; the whole title on hover, on a tap, and to screen readers (the text is all there). */}
        <Tooltip
          title={title}
          open={titleShown}
          onOpen={() => setTitleShown(true)}
          onClose={() => setTitleShown(false)}
          enterTouchDelay={0}
          leaveTouchDelay={4000}
          describeChild
        >
          <Typography variant="h2" component="h2" noWrap data-testid={titleTestId} onClick={() => setTitleShown((shown) => !shown)}>
            {title}
          </Typography>
        </Tooltip>
        {organ && <Typography sx={{ color: 'text.secondary' }}>{organ}</Typography>}
      </Box>
      {priorityLabel && <Chip color="quaternary" label={priorityLabel} sx={{ fontWeight: 700 }} />}
      {leaseLabel !== null && <Chip variant="outlined" label={leaseLabel} data-testid="lease-hours" />}
      {saveStatus && <SaveStatusLabel status={saveStatus} />}
      {children}
    </Box>
  );
}

/** The server refused a save because the lease is gone: nothing more is sent, the way back is offered. */
export function LeaseLostAlert({ error, namespace, backTo }: { error: unknown; namespace: ClaimedWorkNamespace; backTo: string }) {
  const { t } = useTranslation([namespace, 'errors']);
  return (
    <BackAlert severity="error" back={t('back')} backTo={backTo}>
      {error ? errorText(error) : t('errors:LEASE_LOST')}
    </BackAlert>
  );
}

/** The question before a held video goes back to the pool; its texts are `<keys>.title`, `.warning` and `.confirm`. */
export function GiveBackDialog({
  open,
  namespace,
  keys,
  pending,
  danger,
  testId,
  onConfirm,
  onClose,
}: {
  open: boolean;
  namespace: ClaimedWorkNamespace;
  keys: 'release' | 'abandon';
  pending: boolean;
  danger?: boolean;
  testId: string;
  onConfirm(): void;
  onClose(): void;
}) {
  const { t } = useTranslation(namespace);
  return (
    <ConfirmDialog
      open={open}
      title={t(`${keys}.title`)}
      text={t(`${keys}.warning`)}
      confirm={t(`${keys}.confirm`)}
      cancel={t('cancel')}
      pending={pending}
      danger={danger}
      testId={testId}
      onConfirm={onConfirm}
      onClose={onClose}
    />
  );
}
