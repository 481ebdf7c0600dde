/** Business constants of SPEC §9 and the limits the product chose where the spec is silent. */
export const PASSWORD_MIN_LENGTH = 8;
export const RPPS_LENGTH = 11;
/** 8 digits: with the limits below, a year of guessing finds a code with a chance under 1e-6 (docs/security.md). */
export const CODE_LENGTH = 8;
export const CODE_TTL_MINUTES = 15;
/** Wrong tries of one code before it locks. */
export const CODE_MAX_ATTEMPTS = 5;
/** Wrong tries per account and purpose over any 24 hours, across codes. */
export const CODE_DAILY_GUESS_BUDGET = 10;
/**
 * After a code that received a wrong try, the next one waits CODE_TTL_MINUTES × 4^(n-1), n being
 * the number of such codes in the last 365 days: 15 min, 1 h, 4 h, 16 h, 2.7 d, 10.7 d, 43 d, 171 d…
 */
export const CODE_WAIT_GROWTH = 4;
export const LEASE_HOURS = 12;
export const CURRENT_STEP_OFFSET_MS = 50;
export const UPLOAD_RESET_DELAY_MS = 1500;
/** Default largest video upload: 20 GB (configurable with MAX_UPLOAD_BYTES). */
export const DEFAULT_MAX_UPLOAD_BYTES = 20 * 1024 ** 3;
export const LANGUAGE_RELOAD_DELAY_MS = 100;
export const TOAST_DURATION_MS = 5000;
export const PAGE_LIMIT_DEFAULT = 20;
export const PAGE_LIMIT_MAX = 100;
export const AVATAR_MAX_BYTES = 10 * 1024 * 1024;
export const AVATAR_SIZE_PX = 512;
/** Largest picture of a case (docking pictures, pictures-only cases) accepted for upload. */
export const PICTURE_MAX_BYTES = 25 * 1024 * 1024;
/** Pictures are stored at most this many pixels on their long side. */
export const PICTURE_MAX_SIDE_PX = 2048;
export const CONTACT_MESSAGE_MAX = 5000;
export const APP_VERSION = '0.0.5';

export const LAYOUT = {
  leftSidebarWidth: 267,
  rightSidebarWidth: 350,
  headerHeight: 80,
  tabBarHeight: 80,
  tabBarMaxWindowWidth: 992,
  unauthenticatedMaxWidth: 600,
  formMaxWidth: 400,
  formPadding: 20,
} as const;

/** Product width classes: sm < 900 <= md < 1190 <= lg < 1600 <= xl. */
export const BREAKPOINTS = { xs: 0, sm: 500, md: 900, lg: 1190, xl: 1600 } as const;
export const CONTAINER_PADDING = [20, 30, 40, 50] as const;

export const COLORS = {
  primary: '#17C7A4',
  secondary: '#1D69EE',
  tertiary: '#FF5D73',
  quaternary: '#FC9112',
  error: '#FF4848',
  textLight: '#04251E',
  textDark: '#FFFFFF',
  backgroundLight: '#FFFFFF',
  backgroundDark: '#151918',
  /** Rating levels 1 to 5, red to dark green. */
  ratings: ['#FF4848', '#FC9112', '#F2C94C', '#6FCF97', '#1E7F4F'],
} as const;

export const SOCKET = {
  reconnectionAttempts: 15,
  reconnectionDelay: 1000,
  reconnectionDelayMax: 5000,
  timeout: 20000,
  randomizationFactor: 0.5,
} as const;

export const STORAGE_KEYS = {
  token: 'userToken',
  theme: 'theme',
  language: 'language',
  colorMode: 'colorMode',
} as const;

/**
 * Bytes hashed at each end of a video file for its upload fingerprint (UPLOAD_FINGERPRINT_PATTERN).
 * Here, free of zod, because the upload code of the shell computes it on every page.
 */
export const UPLOAD_FINGERPRINT_EDGE_BYTES = 1024 * 1024;
