import type { Language } from '@sutura/domain/i18n';

/** Each language's name as it writes it itself. */
export const NATIVE_NAMES: Record<Language, string> = { fr: 'Français', en: 'English' };
