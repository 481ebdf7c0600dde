import type SvgIcon from '@mui/material/SvgIcon';
import AccessibilityNewOutlined from '@mui/icons-material/AccessibilityNewOutlined';
import AccountCircleOutlined from '@mui/icons-material/AccountCircleOutlined';
import AdminPanelSettingsOutlined from '@mui/icons-material/AdminPanelSettingsOutlined';
import BalanceOutlined from '@mui/icons-material/BalanceOutlined';
import BarChartOutlined from '@mui/icons-material/BarChartOutlined';
import ContrastOutlined from '@mui/icons-material/ContrastOutlined';
import CookieOutlined from '@mui/icons-material/CookieOutlined';
import CompareArrowsOutlined from '@mui/icons-material/CompareArrowsOutlined';
import DashboardOutlined from '@mui/icons-material/DashboardOutlined';
import DescriptionOutlined from '@mui/icons-material/DescriptionOutlined';
import EmojiEventsOutlined from '@mui/icons-material/EmojiEventsOutlined';
import FactCheckOutlined from '@mui/icons-material/FactCheckOutlined';
import GavelOutlined from '@mui/icons-material/GavelOutlined';
import MailOutlined from '@mui/icons-material/MailOutlined';
import MenuBookOutlined from '@mui/icons-material/MenuBookOutlined';
import MovieEditIcon from '@mui/icons-material/MovieEdit';
import NotificationsActiveOutlined from '@mui/icons-material/NotificationsActiveOutlined';
import PeopleOutlined from '@mui/icons-material/PeopleOutlined';
import PeopleAltOutlined from '@mui/icons-material/PeopleAltOutlined';
import PolicyOutlined from '@mui/icons-material/PolicyOutlined';
import RateReviewOutlined from '@mui/icons-material/RateReviewOutlined';
import SettingsOutlined from '@mui/icons-material/SettingsOutlined';
import TranslateOutlined from '@mui/icons-material/TranslateOutlined';
import TuneOutlined from '@mui/icons-material/TuneOutlined';
import VideoLibraryOutlined from '@mui/icons-material/VideoLibraryOutlined';
import VideoSettingsOutlined from '@mui/icons-material/VideoSettingsOutlined';
import type { MenuIcon } from '@sutura/domain/menu';

export const MENU_ICONS: Record<MenuIcon, typeof SvgIcon> = {
  dashboard: DashboardOutlined,
  admin: AdminPanelSettingsOutlined,
  vocabularies: MenuBookOutlined,
  surgeryVideos: VideoSettingsOutlined,
  bestCases: EmojiEventsOutlined,
  users: PeopleOutlined,
  auditLog: FactCheckOutlined,
  calibration: BalanceOutlined,
  doubleReview: PeopleAltOutlined,
  disagreements: CompareArrowsOutlined,
  stats: BarChartOutlined,
  videos: VideoLibraryOutlined,
  editor: MovieEditIcon,
  expert: RateReviewOutlined,
  account: AccountCircleOutlined,
  settings: SettingsOutlined,
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
