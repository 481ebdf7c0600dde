import type { ReactNode } from 'react';
import SvgIcon, { type SvgIconProps } from '@mui/material/SvgIcon';
import type { OrganIcon as OrganIconName } from '@sutura/domain/vocabularies';

/** Outlined 24 × 24 drawings in the current colour, readable at the size of a menu icon. */
const stroke = { fill: 'none', stroke: 'currentColor', strokeWidth: 1.6, strokeLinecap: 'round', strokeLinejoin: 'round' } as const;

const DRAWINGS: Record<OrganIconName, ReactNode> = {
  // A bean with its hilum and the start of the ureter.
  kidney: (
    <>
      <path
        {...stroke}
        d="M15.5 3.5c-3.6-1.6-8.4.5-9.6 5.2-1.1 4.3.5 9.4 4.4 11.1 3.1 1.3 6.4-.3 6.7-3.3.2-1.7-1.3-2.6-1.3-4.5s1.9-2.9 2.1-4.6c.3-1.9-.7-3.1-2.3-3.9Z"
      />
      <path {...stroke} d="M15.7 12.6c1.4.3 2.6 1.4 3.2 3.2l.6 5.2" />
      <path {...stroke} d="M9.4 8.2c-.9 1.6-1 3.9-.2 5.8" />
    </>
  ),
  // A round reservoir on its neck, with both ureters coming in at the top.
  bladder: (
    <>
      <path {...stroke} d="M12 19c-4.4 0-7.5-2.9-7.5-6.8 0-3.7 3.2-6.2 7.5-6.2s7.5 2.5 7.5 6.2C19.5 16.1 16.4 19 12 19Z" />
      <path {...stroke} d="M12 19v3" />
      <path {...stroke} d="M7.5 7 6 2.5M16.5 7 18 2.5" />
    </>
  ),
  // A chestnut cut across, the urethra running through its middle.
  prostate: (
    <>
      <path {...stroke} d="M4.5 9.5C4.5 6 7.8 4 12 4s7.5 2 7.5 5.5c0 5-3.6 10-7.5 10s-7.5-5-7.5-10Z" />
      <circle {...stroke} cx="12" cy="10.5" r="2" />
      <path {...stroke} d="M12 1.5V4M12 19.5v3" />
    </>
  ),
  // A small kidney under the triangular cap of the gland, which is filled to stand out.
  adrenalGland: (
    <>
      <path
        {...stroke}
        d="M14.8 9.5c-2.9-1.2-6.7.4-7.6 4.1-.9 3.4.4 7.1 3.5 8 2.4.7 4.8-.6 5-2.9.1-1.3-1-2-1-3.4s1.5-2.2 1.6-3.5c.2-1.3-.5-1.9-1.5-2.3Z"
      />
      <path d="M6.6 9.3 11.3 2.6c.3-.4.9-.4 1.2 0l4.6 6.5c.3.5-.1 1.1-.6 1-3.2-1-6.5-.9-9.5.3-.5.2-1-.5-.4-1.1Z" fill="currentColor" />
    </>
  ),
  // A kidney at the top, the long winding duct down to the bladder.
  ureter: (
    <>
      <path
        {...stroke}
        d="M8.8 1.8C5.9 1 3 3.2 2.8 6.5c-.2 3 1.8 5.6 4.6 5.4 1.9-.1 2.9-1.5 2.5-3-.3-1.1-1.3-1.5-1.2-2.7.1-1.1 1.2-1.6 1.2-2.6 0-.9-.5-1.5-1.1-1.8Z"
      />
      <path {...stroke} d="M10.1 8.2c3 .5 4 2.5 3 4.9-.8 1.9-1.5 2.9-.9 4.4" />
      <path {...stroke} d="M5.5 22.2c0-3 2.9-5.2 6.5-5.2s6.5 2.2 6.5 5.2Z" />
    </>
  ),
  // The large bowel framing the abdomen: up the right side, across, down the left, with its pouches.
  colon: (
    <>
      <path {...stroke} d="M6.5 21V6.5C6.5 4.6 7.6 3.5 9.5 3.5h5c1.9 0 3 1.1 3 3V17c0 1.6-1 2.5-2.5 2.5H13" />
      <path {...stroke} d="M6.5 10h1.6M6.5 14h1.6M10.5 3.5v1.6M14 3.5v1.6M17.5 10h-1.6M17.5 14h-1.6" />
    </>
  ),
  // A pear-shaped sac hanging from its duct, a stone inside.
  gallbladder: (
    <>
      <path {...stroke} d="M12 2.5v5" />
      <path {...stroke} d="M12 7.5c-3.2 0-5.5 3.4-5.5 7.5 0 3.6 2.4 6.5 5.5 6.5s5.5-2.9 5.5-6.5c0-4.1-2.3-7.5-5.5-7.5Z" />
      <circle cx="11" cy="16" r="1.4" fill="currentColor" />
    </>
  ),
  // A chain of lymph nodes along a vessel, one of them taken out (dashed).
  lymphadenectomy: (
    <>
      <path {...stroke} d="M3 20.5 21 3.5" />
      <circle {...stroke} cx="6.5" cy="17.2" r="2.2" />
      <circle {...stroke} cx="12" cy="12" r="2.2" />
      <circle {...stroke} cx="17.5" cy="6.8" r="2.2" strokeDasharray="1.6 1.4" />
      <circle cx="12" cy="12" r="0.9" fill="currentColor" />
      <circle cx="6.5" cy="17.2" r="0.9" fill="currentColor" />
    </>
  ),
};

/** The icon of an organ (vocabulary `icon` field); decorative unless given a title. */
export function OrganIcon({ icon, ...props }: { icon: OrganIconName } & SvgIconProps) {
  return (
    <SvgIcon aria-hidden {...props}>
      {DRAWINGS[icon]}
    </SvgIcon>
  );
}
