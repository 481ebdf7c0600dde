import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useLocation } from 'react-router';
import Box from '@mui/material/Box';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Paper from '@mui/material/Paper';
import { LAYOUT } from '@sutura/domain/limits';
import { activeMenuPath } from '@sutura/domain/menu';
import { Logo } from '@/components/logo';
import { MENU_ICONS } from '@/components/menu-icons';
import { useMenuEntries } from '@/app/shell/use-menu-entries';

// The temporary drawer brings Modal, Slide and the focus trap: fetched when the menu first opens.
const Drawer = lazy(() => import('@mui/material/Drawer'));

function MenuContent() {
  const { t } = useTranslation(['menu', 'shell']);
  const { pathname } = useLocation();
  const entries = useMenuEntries('drawer');
  // One entry only: the page's own, not the administration home above it as well.
  const activePath = activeMenuPath(entries, pathname);
  return (
    <Box
      component="nav"
      data-testid="left-menu"
      aria-label={t('shell:mainMenu')}
      sx={{ display: 'flex', flexDirection: 'column', height: '100%' }}
    >
      <Box
        component={RouterLink}
        to="/dashboard"
        aria-label={t('shell:homeLink')}
        sx={{ display: 'flex', alignItems: 'center', minHeight: LAYOUT.headerHeight, px: 3, textDecoration: 'none', color: 'inherit' }}
      >
        <Logo size={40} />
      </Box>
      <List sx={{ px: 1.5, py: 1 }}>
        {entries.map((entry) => {
          const Icon = MENU_ICONS[entry.icon];
          const active = entry.path === activePath;
          return (
            <ListItem key={entry.path} disablePadding>
              <ListItemButton
                component={RouterLink}
                to={entry.path}
                selected={active}
                aria-current={active ? 'page' : undefined}
                sx={{
                  borderRadius: 2,
                  mb: 0.5,
                  minHeight: 48,
                  '&.Mui-selected': { bgcolor: 'primary.main', color: 'primary.contrastText' },
                  '&.Mui-selected:hover': { bgcolor: 'primary.main' },
                  '&.Mui-selected .MuiListItemIcon-root': { color: 'primary.contrastText' },
                }}
              >
                <ListItemIcon sx={{ minWidth: 40, color: 'text.primary' }}>
                  <Icon />
                </ListItemIcon>
                <ListItemText primary={t(`menu:${entry.titleKey}`)} slotProps={{ primary: { sx: { fontWeight: 700 } } }} />
              </ListItemButton>
            </ListItem>
          );
        })}
      </List>
    </Box>
  );
}

/** Fixed at large widths; a temporary drawer otherwise, closed by the layout on route change. */
export function LeftMenu({ permanent, open, onClose }: { permanent: boolean; open: boolean; onClose(): void }) {
  // Mounted from the first opening on, so that it closes with its animation.
  const [opened, setOpened] = useState(open);
  if (open && !opened) setOpened(true);
  const paperSx = { width: LAYOUT.leftSidebarWidth, boxSizing: 'border-box' as const, bgcolor: 'background.paper' };
  if (permanent) {
    // What MUI's permanent Drawer draws (a docked, fixed paper), without the temporary drawer's code.
    return (
      <Box sx={{ width: LAYOUT.leftSidebarWidth, flexShrink: 0 }}>
        <Box className="MuiDrawer-root MuiDrawer-docked" sx={{ flex: '0 0 auto' }}>
          <Paper
            elevation={0}
            square
            className="MuiDrawer-paper MuiDrawer-paperAnchorLeft MuiDrawer-paperAnchorDockedLeft"
            sx={{
              overflowY: 'auto',
              display: 'flex',
              flexDirection: 'column',
              height: '100%',
              flex: '1 0 auto',
              zIndex: 'drawer',
              WebkitOverflowScrolling: 'touch',
              position: 'fixed',
              top: 0,
              left: 0,
              outline: 0,
              ...paperSx,
              borderRight: 1,
              borderColor: 'divider',
            }}
          >
            <MenuContent />
          </Paper>
        </Box>
      </Box>
    );
  }
  if (!opened) return null;
  return (
    <Suspense fallback={null}>
      <Drawer
        variant="temporary"
        open={open}
        onClose={onClose}
        slotProps={{ paper: { sx: { ...paperSx, pb: `${LAYOUT.tabBarHeight}px` } } }}
      >
        <MenuContent />
      </Drawer>
    </Suspense>
  );
}
