import Box from '@mui/material/Box';
import { ORGAN_ICONS, type OrganIcon as OrganIconName } from '@sutura/domain/vocabularies';
import { OrganIcon } from '@/components/video/organ-icons';

const isOrganIcon = (icon: string): icon is OrganIconName => (ORGAN_ICONS as readonly string[]).includes(icon);

/** An organ's name after its icon (the icon is decorative). */
export function OrganLabel({ organ }: { organ: { name: string; icon: string } }) {
  return (
    <Box component="span" sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5 }}>
      {isOrganIcon(organ.icon) && <OrganIcon icon={organ.icon} fontSize="small" />}
      {organ.name}
    </Box>
  );
}
