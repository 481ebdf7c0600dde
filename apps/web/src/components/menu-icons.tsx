import type SvgIcon from '@mui/material/SvgIcon';
import AccountCircleOutlined from '@mui/icons-material/AccountCircleOutlined';
import AdminPanelSettingsOutlined from '@mui/icons-material/AdminPanelSettingsOutlined';
import BalanceOutlined from '@mui/icons-material/BalanceOutlined';
import BarChartOutlined from '@mui/icons-material/BarChartOutlined';
import CompareArrowsOutlined from '@mui/icons-material/CompareArrowsOutlined';
import DashboardOutlined from '@mui/icons-material/DashboardOutlined';
import EmojiEventsOutlined from '@mui/icons-material/EmojiEventsOutlined';
import FactCheckOutlined from '@mui/icons-material/FactCheckOutlined';
import HistoryToggleOffOutlined from '@mui/icons-material/HistoryToggleOffOutlined';
import StorageOutlined from '@mui/icons-material/StorageOutlined';
import MenuBookOutlined from '@mui/icons-material/MenuBookOutlined';
import MovieEditIcon from '@mui/icons-material/MovieEdit';
import PeopleOutlined from '@mui/icons-material/PeopleOutlined';
import PeopleAltOutlined from '@mui/icons-material/PeopleAltOutlined';
import RateReviewOutlined from '@mui/icons-material/RateReviewOutlined';
import SchoolOutlined from '@mui/icons-material/SchoolOutlined';
import SettingsOutlined from '@mui/icons-material/SettingsOutlined';
import VideoLibraryOutlined from '@mui/icons-material/VideoLibraryOutlined';
import VideoSettingsOutlined from '@mui/icons-material/VideoSettingsOutlined';
import type { NavigationIcon } from '@sutura/domain/menu';

/** The icons of the menu, the tab bar and the dashboard's spaces (the settings page's own: settings-icons.tsx). */
export const MENU_ICONS: Record<NavigationIcon, typeof SvgIcon> = {
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
  programmes: SchoolOutlined,
  retention: HistoryToggleOffOutlined,
  storage: StorageOutlined,
  stats: BarChartOutlined,
  videos: VideoLibraryOutlined,
  editor: MovieEditIcon,
  expert: RateReviewOutlined,
  account: AccountCircleOutlined,
  settings: SettingsOutlined,
};
