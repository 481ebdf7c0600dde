import type SvgIcon from '@mui/material/SvgIcon';
import AccessibilityNewOutlined from '@mui/icons-material/AccessibilityNewOutlined';
import ContrastOutlined from '@mui/icons-material/ContrastOutlined';
import CookieOutlined from '@mui/icons-material/CookieOutlined';
import DescriptionOutlined from '@mui/icons-material/DescriptionOutlined';
import GavelOutlined from '@mui/icons-material/GavelOutlined';
import MailOutlined from '@mui/icons-material/MailOutlined';
import NotificationsActiveOutlined from '@mui/icons-material/NotificationsActiveOutlined';
import PolicyOutlined from '@mui/icons-material/PolicyOutlined';
import TranslateOutlined from '@mui/icons-material/TranslateOutlined';
import TuneOutlined from '@mui/icons-material/TuneOutlined';
import type { SettingsIcon } from '@sutura/domain/menu';

/** The icons of the entries only the settings page lists: with that page, not in the shell's code. */
export const SETTINGS_ICONS: Record<SettingsIcon, typeof SvgIcon> = {
  theme: ContrastOutlined,
  language: TranslateOutlined,
  preferences: TuneOutlined,
  contact: MailOutlined,
  notifications: NotificationsActiveOutlined,
  conditions: DescriptionOutlined,
  privacy: PolicyOutlined,
  legal: GavelOutlined,
  cookies: CookieOutlined,
  accessibility: AccessibilityNewOutlined,
};
