import '@/lib/fonts.css';
import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import CssBaseline from '@mui/material/CssBaseline';
import useMediaQuery from '@mui/material/useMediaQuery';
import { alpha, createTheme, ThemeProvider, useTheme, type Theme } from '@mui/material/styles';
import { BREAKPOINTS, COLORS, STORAGE_KEYS } from '@sutura/domain/limits';
import { THEME_PREFERENCES, type ThemePreference } from '@sutura/domain/preference-values';
import { useSession } from '@/lib/session';
import { chartPalette, type ChartPalette } from '@/lib/chart-palette';

declare module '@mui/material/styles' {
  interface Palette {
    tertiary: Palette['primary'];
    quaternary: Palette['primary'];
  }
  interface PaletteOptions {
    tertiary?: PaletteOptions['primary'];
    quaternary?: PaletteOptions['primary'];
  }
}

declare module '@mui/material/Button' {
  interface ButtonPropsColorOverrides {
    tertiary: true;
    quaternary: true;
  }
}

declare module '@mui/material/IconButton' {
  interface IconButtonPropsColorOverrides {
    tertiary: true;
    quaternary: true;
  }
}

declare module '@mui/material/Chip' {
  interface ChipPropsColorOverrides {
    tertiary: true;
    quaternary: true;
  }
}

declare module '@mui/material/LinearProgress' {
  interface LinearProgressPropsColorOverrides {
    tertiary: true;
    quaternary: true;
  }
}

export type ColorMode = 'light' | 'dark';

/** The charts' palette for the theme shown (lib/chart-palette.ts): every chart takes its colours here. */
export function useChartPalette(): ChartPalette {
  const theme = useTheme();
  return chartPalette(theme.palette.mode);
}

/** Darker shades for text drawn in a brand colour on a white page, so it reaches WCAG AA. */
const TEXT_ON_LIGHT = { primary: '#0A6E5A', secondary: '#1D5FD6', error: '#C62828', warning: '#A65400' } as const;
/**
 * On the dark page the brand blue as text or outline (a role chip, a text button) falls to 3.3:1:
 * a lighter blue keeps 6.4:1 there, and dark text on it 6.4:1 (WCAG AA).
 */
const SECONDARY_ON_DARK = '#6EA2FF';

/**
 * The theme of a colour mode. With `reduceMotion` (the device asks for less motion,
 * `prefers-reduced-motion: reduce`), nothing slides, fades, ripples or shimmers: drawers, dialogs and
 * menus appear at once and skeletons stand still; progress indicators keep turning (they say work
 * goes on).
 */
export function createAppTheme(mode: ColorMode, reduceMotion = false): Theme {
  const light = mode === 'light';
  const text = light ? COLORS.textLight : COLORS.textDark;
  return createTheme({
    breakpoints: { values: { ...BREAKPOINTS } },
    // No CSS transition is drawn; the durations stay, so that the components' own timers (a
    // tooltip opened by a tap, a menu's focus once open) keep their order.
    ...(reduceMotion ? { transitions: { create: () => 'none' } } : {}),
    palette: {
      mode,
      primary: { main: COLORS.primary, dark: '#13B192', contrastText: COLORS.textLight },
      secondary: light ? { main: COLORS.secondary, contrastText: '#FFFFFF' } : { main: SECONDARY_ON_DARK, contrastText: COLORS.textLight },
      tertiary: { main: COLORS.tertiary, contrastText: COLORS.textLight },
      quaternary: { main: COLORS.quaternary, contrastText: COLORS.textLight },
      // The red of destructive and record buttons: 3.3:1 on white as #FF4848, 5.6:1 darker (white text on it too).
      error: light ? { main: TEXT_ON_LIGHT.error, contrastText: '#FFFFFF' } : { main: COLORS.error, contrastText: COLORS.textLight },
      warning: { main: COLORS.quaternary, contrastText: COLORS.textLight },
      success: { main: COLORS.primary, contrastText: COLORS.textLight },
      info: light ? { main: COLORS.secondary, contrastText: '#FFFFFF' } : { main: SECONDARY_ON_DARK, contrastText: COLORS.textLight },
      text: {
        primary: text,
        secondary: alpha(text, light ? 0.75 : 0.78),
      },
      background: light
        ? { default: COLORS.backgroundLight, paper: COLORS.backgroundLight }
        : { default: COLORS.backgroundDark, paper: '#1C2120' },
      divider: alpha(text, 0.14),
    },
    typography: {
      fontFamily: '"Open Sans", system-ui, -apple-system, "Segoe UI", Roboto, sans-serif',
      h1: { fontSize: 22, fontWeight: 700, lineHeight: 1.4 },
      h2: { fontSize: 22, fontWeight: 700, lineHeight: 1.4 },
      h3: { fontSize: 18, fontWeight: 700, lineHeight: 1.4 },
      h4: { fontSize: 16, fontWeight: 700, lineHeight: 1.5 },
      h5: { fontSize: 16, fontWeight: 700 },
      h6: { fontSize: 16, fontWeight: 700 },
      body1: { fontSize: 16, lineHeight: '28px' },
      body2: { fontSize: 14, lineHeight: '22px' },
      button: { textTransform: 'none', fontWeight: 700, fontSize: 15 },
    },
    shape: { borderRadius: 10 },
    components: {
      // Dark surfaces (drawer, notifications panel, dialogs, menus) take the page's palette: no
      // lighter grey from MUI's elevation overlay.
      MuiPaper: { styleOverrides: { root: { backgroundImage: 'none' } } },
      ...(reduceMotion
        ? {
            MuiButtonBase: { defaultProps: { disableRipple: true } },
            MuiSkeleton: { defaultProps: { animation: false } },
          }
        : {}),
      MuiButton: {
        defaultProps: { disableElevation: true },
        styleOverrides: {
          root: { borderRadius: 10, minHeight: 44 },
          text: light ? { '&.MuiButton-colorPrimary': { color: TEXT_ON_LIGHT.primary } } : {},
          outlined: light ? { '&.MuiButton-colorPrimary': { color: TEXT_ON_LIGHT.primary } } : {},
        },
      },
      // Teal text and outlines on white (2.2:1) take the darker teal; orange ones (2.3:1) a darker orange (5.4:1).
      MuiChip: {
        styleOverrides: {
          root: light
            ? {
                // MUI 9 names the variant and the colour apart (no more MuiChip-outlinedSuccess).
                '&.MuiChip-outlined.MuiChip-colorPrimary': { color: TEXT_ON_LIGHT.primary, borderColor: TEXT_ON_LIGHT.primary },
                '&.MuiChip-outlined.MuiChip-colorSuccess': { color: TEXT_ON_LIGHT.primary, borderColor: TEXT_ON_LIGHT.primary },
                '&.MuiChip-outlined.MuiChip-colorWarning': { color: TEXT_ON_LIGHT.warning, borderColor: TEXT_ON_LIGHT.warning },
              }
            : {},
        },
      },
      MuiTab: {
        styleOverrides: { root: light ? { '&.Mui-selected': { color: TEXT_ON_LIGHT.primary } } : {} },
      },
      MuiLink: {
        styleOverrides: { root: { color: light ? TEXT_ON_LIGHT.primary : COLORS.primary, fontWeight: 700 } },
      },
      MuiFormHelperText: {
        styleOverrides: { root: light ? { '&.Mui-error': { color: TEXT_ON_LIGHT.error } } : {} },
      },
      MuiFormLabel: {
        styleOverrides: {
          root: light
            ? { '&.Mui-error': { color: TEXT_ON_LIGHT.error }, '&.Mui-focused:not(.Mui-error)': { color: TEXT_ON_LIGHT.primary } }
            : {},
        },
      },
      MuiStepIcon: {
        styleOverrides: {
          root: {
            color: light ? '#C5D1CE' : '#4A5754',
            '&.Mui-active, &.Mui-completed': { color: COLORS.primary },
            '&.Mui-active .MuiStepIcon-text': { fill: COLORS.textLight },
          },
          text: { fill: light ? COLORS.textLight : '#FFFFFF', fontWeight: 700 },
        },
      },
      MuiCssBaseline: {
        styleOverrides: {
          ':focus-visible': { outline: `3px solid ${light ? TEXT_ON_LIGHT.secondary : COLORS.primary}`, outlineOffset: 2 },
          ...(reduceMotion ? { html: { scrollBehavior: 'auto' } } : {}),
        },
      },
    },
  });
}

/** The admin area: three colour families (teal, blue, red) for charts and badges. */
export function adminTheme(outer: Theme): Theme {
  return createTheme(outer, {
    palette: {
      primary: outer.palette.augmentColor({ color: { main: COLORS.primary, contrastText: COLORS.textLight } }),
      secondary: outer.palette.augmentColor({
        color:
          outer.palette.mode === 'light'
            ? { main: COLORS.secondary, contrastText: '#FFFFFF' }
            : { main: SECONDARY_ON_DARK, contrastText: COLORS.textLight },
      }),
      tertiary: outer.palette.augmentColor({ color: { main: COLORS.tertiary, contrastText: COLORS.textLight } }),
    },
  });
}

export function AdminThemeScope({ children }: { children: ReactNode }) {
  return <ThemeProvider theme={adminTheme}>{children}</ThemeProvider>;
}

interface ColorModeValue {
  mode: ColorMode;
  preference: ThemePreference;
  setPreference(p: ThemePreference): void;
}

const ColorModeContext = createContext<ColorModeValue | null>(null);

function isThemePreference(value: unknown): value is ThemePreference {
  return typeof value === 'string' && (THEME_PREFERENCES as readonly string[]).includes(value);
}

function readStoredPreference(): ThemePreference {
  try {
    const stored = localStorage.getItem(STORAGE_KEYS.theme);
    return isThemePreference(stored) ? stored : 'auto';
  } catch (error) {
    console.error(error);
    return 'auto';
  }
}

export function ColorModeProvider({ children }: { children: ReactNode }) {
  const { session, updatePreferences } = useSession();
  const deviceDark = useMediaQuery('(prefers-color-scheme: dark)', { noSsr: true });
  const reduceMotion = useMediaQuery('(prefers-reduced-motion: reduce)', { noSsr: true });
  const [storedPreference, setStoredPreference] = useState<ThemePreference>(readStoredPreference);

  // SPEC §4: a signed-in person's preference wins; anonymous visitors keep theirs on the device.
  const preference = session ? session.preferences.theme : storedPreference;
  const mode: ColorMode = preference === 'auto' ? (deviceDark ? 'dark' : 'light') : preference;

  const setPreference = useCallback(
    (next: ThemePreference) => {
      if (session) {
        updatePreferences({ theme: next }).catch((error: unknown) => console.error(error));
        return;
      }
      setStoredPreference(next);
      try {
        localStorage.setItem(STORAGE_KEYS.theme, next);
      } catch (error) {
        console.error(error);
      }
    },
    [session, updatePreferences],
  );

  // The colour mode in use is kept on the device (SPEC §9), as a local value and a one-year cookie.
  useEffect(() => {
    try {
      localStorage.setItem(STORAGE_KEYS.colorMode, mode);
      document.cookie = `${STORAGE_KEYS.colorMode}=${mode}; Max-Age=31536000; Path=/; SameSite=Lax`;
    } catch (error) {
      console.error(error);
    }
  }, [mode]);

  const theme = useMemo(() => createAppTheme(mode, reduceMotion), [mode, reduceMotion]);
  const value = useMemo(() => ({ mode, preference, setPreference }), [mode, preference, setPreference]);

  return (
    <ColorModeContext.Provider value={value}>
      <ThemeProvider theme={theme}>
        <CssBaseline enableColorScheme />
        {children}
      </ThemeProvider>
    </ColorModeContext.Provider>
  );
}

export function useColorMode(): ColorModeValue {
  const value = useContext(ColorModeContext);
  if (!value) throw new Error('useColorMode must be used inside ColorModeProvider');
  return value;
}
