import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import Box from '@mui/material/Box';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import ChevronRight from '@mui/icons-material/ChevronRight';
import { APP_VERSION } from '@sutura/domain/limits';
import { isNavigationEntry, menuFor, type MenuEntry } from '@sutura/domain/menu';
import { useSession } from '@/lib/session';
import { MENU_ICONS } from '@/components/menu-icons';
import { SETTINGS_ICONS } from '@/features/settings/components/settings-icons';

function EntryIcon({ entry }: { entry: MenuEntry }) {
  const Icon = isNavigationEntry(entry) ? MENU_ICONS[entry.icon] : SETTINGS_ICONS[entry.icon];
  return <Icon aria-hidden />;
}

/** `/settings`: the settings entries of MENU that the person's role may use. */
export function SettingsListPage() {
  const { t } = useTranslation('settings');
  const { session } = useSession();
  const entries = menuFor(session?.roles ?? [], 'settings');

  return (
    <Box sx={{ maxWidth: 720, width: '100%', mx: 'auto', pb: 3 }}>
      <Paper variant="outlined" sx={{ overflow: 'hidden' }}>
        <List disablePadding aria-label={t('list.label')}>
          {entries.map((entry, index) => (
            <ListItem key={entry.name} disablePadding divider={index < entries.length - 1}>
              <ListItemButton component={RouterLink} to={entry.path} data-testid={`settings-entry-${entry.name}`} sx={{ py: 1.5 }}>
                <ListItemIcon sx={{ color: 'primary.main', minWidth: 48 }}>
                  <EntryIcon entry={entry} />
                </ListItemIcon>
                <ListItemText
                  primary={t(`menu:${entry.titleKey}`, { defaultValue: t(`entries.${entry.name}.title`) })}
                  secondary={t(`entries.${entry.name}.description`)}
                  slotProps={{ primary: { sx: { fontWeight: 700 } } }}
                />
                <ChevronRight aria-hidden sx={{ color: 'text.secondary' }} />
              </ListItemButton>
            </ListItem>
          ))}
        </List>
      </Paper>
      <Typography variant="body2" color="text.secondary" sx={{ mt: 3, textAlign: 'center' }} data-testid="app-version">
        {t('list.version', { version: APP_VERSION })}
      </Typography>
    </Box>
  );
}
