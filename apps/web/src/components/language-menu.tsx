import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Check from '@mui/icons-material/Check';
import { LANGUAGES, type Language } from '@sutura/domain/i18n';
import { NATIVE_NAMES } from '@/components/language-names';

/** The languages to choose from; its own chunk, fetched when the switcher is first opened. */
export default function LanguageMenu({
  anchor,
  lang,
  onChoose,
  onClose,
}: {
  anchor: HTMLElement | null;
  lang: Language;
  onChoose(lang: Language): void;
  onClose(): void;
}) {
  return (
    <Menu id="language-menu" anchorEl={anchor} open={Boolean(anchor)} onClose={onClose}>
      {LANGUAGES.map((code) => (
        <MenuItem key={code} lang={code} selected={code === lang} onClick={() => onChoose(code)}>
          <ListItemIcon>{code === lang && <Check fontSize="small" />}</ListItemIcon>
          <ListItemText>{NATIVE_NAMES[code]}</ListItemText>
        </MenuItem>
      ))}
    </Menu>
  );
}
