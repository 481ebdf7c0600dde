import Avatar from '@mui/material/Avatar';
import type { Session } from '@sutura/domain/auth';

/** SPEC §3: the picture when there is one, otherwise the first character of the full name. */
export function UserAvatar({ session, size = 40 }: { session: Session; size?: number }) {
  const fullName = `${session.information.firstName} ${session.information.lastName}`.trim();
  return (
    <Avatar
      src={session.avatarUrl ?? undefined}
      alt={session.avatarUrl ? fullName : undefined}
      sx={{ width: size, height: size, bgcolor: 'primary.main', color: 'primary.contrastText', fontWeight: 700 }}
    >
      {fullName.charAt(0).toUpperCase()}
    </Avatar>
  );
}
