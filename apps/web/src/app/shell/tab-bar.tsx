import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useLocation } from 'react-router';
import BottomNavigation from '@mui/material/BottomNavigation';
import BottomNavigationAction from '@mui/material/BottomNavigationAction';
import Paper from '@mui/material/Paper';
import MenuIcon from '@mui/icons-material/Menu';
import { LAYOUT } from '@sutura/domain/limits';
import { activeMenuPath } from '@sutura/domain/menu';
import { MENU_ICONS } from '@/components/menu-icons';
import { useMenuEntries } from '@/app/shell/use-menu-entries';

export function TabBar({ menuOpen, onToggleMenu }: { menuOpen: boolean; onToggleMenu(): void }) {
  const { t } = useTranslation(['menu', 'shell', 'tab-bar']);
  const { pathname } = useLocation();
  const entries = useMenuEntries('tabs');
  const activePath = activeMenuPath(entries, pathname);
  const active = activePath ?? (menuOpen ? 'menu' : false);
  return (
    <Paper
      component="nav"
      data-testid="tab-bar"
      aria-label={t('shell:tabBar')}
      elevation={8}
      square
      sx={{
        position: 'fixed',
        left: 0,
        right: 0,
        bottom: 0,
        zIndex: (theme) => theme.zIndex.drawer + 2,
        borderTop: 1,
        borderColor: 'divider',
        pb: 'env(safe-area-inset-bottom)',
      }}
    >
      <BottomNavigation
        value={active}
        showLabels
        sx={{
          height: LAYOUT.tabBarHeight,
          bgcolor: 'background.paper',
          '& .MuiBottomNavigationAction-root': { color: 'text.secondary', minWidth: 0, px: 0.5 },
          '& .Mui-selected': { color: 'text.primary' },
          '& .Mui-selected .MuiSvgIcon-root': { color: 'primary.main' },
          '& .MuiBottomNavigationAction-label': { fontSize: 12, fontWeight: 700, whiteSpace: 'nowrap' },
          '& .MuiBottomNavigationAction-label.Mui-selected': { fontSize: 12 },
        }}
      >
        {entries.map((entry) => {
          const Icon = MENU_ICONS[entry.icon];
          return (
            <BottomNavigationAction
              key={entry.path}
              value={entry.path}
              // Short labels: a tab's text stays on one line at 390 px, in both languages.
              // Its name is the text it shows (WCAG 2.5.3); the page's own title is said by the page.
              label={t(`tab-bar:${entry.name}`, { defaultValue: t(`menu:${entry.titleKey}`) })}
              icon={<Icon />}
              component={RouterLink}
              to={entry.path}
              aria-current={entry.path === activePath ? 'page' : undefined}
            />
          );
        })}
        <BottomNavigationAction
          value="menu"
          data-testid="menu-toggle"
          label={t('shell:menu')}
          icon={<MenuIcon />}
          onClick={onToggleMenu}
          aria-expanded={menuOpen}
        />
      </BottomNavigation>
    </Paper>
  );
}
