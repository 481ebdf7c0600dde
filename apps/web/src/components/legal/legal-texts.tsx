import { Fragment, useMemo, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { alpha } from '@mui/material/styles';
import { useQuery } from '@tanstack/react-query';
import { LEGAL_SETTINGS, legalFieldOf } from '@sutura/domain/legal';
import { isOperatorField, operatorDetails, type OperatorField } from '@/components/legal/operator-details';
import { api } from '@/lib/http';
import { useSession } from '@/lib/session';

/*
 * The legal texts, drawn from `legal.json` so both languages hold the same structure. They need
 * no session, so the sign-up dialog can show them before anyone has signed in.
 */

type LegalBlock = { p: string } | { list: string[] };
interface LegalSection {
  heading: string;
  blocks: LegalBlock[];
}
interface LegalDocumentContent {
  title: string;
  intro: string;
  sections: LegalSection[];
}
interface CookieItem {
  name: string;
  storage: string;
  purpose: string;
  lifetime: string;
}

export type LegalDocumentName = 'conditions' | 'privacy' | 'legalNotice' | 'cookies';

export interface LegalTextProps {
  /** Hide the document title, for a container that already shows it (a dialog title). */
  hideTitle?: boolean;
}

function asArray<T>(value: unknown): T[] {
  return Array.isArray(value) ? (value as T[]) : [];
}

/**
 * A detail the installation has not set. Its readers see a plain "not provided"; an
 * administrator sees which server setting fills it (the server also warns at start-up).
 */
function FieldToComplete({ field }: { field: OperatorField }) {
  const { t } = useTranslation('legal');
  const { session } = useSession();
  if (!session?.roles.includes('administrator')) {
    return (
      <Box component="span" data-testid={`legal-field-${field}`} sx={{ fontStyle: 'italic' }}>
        {t('notProvided')}
      </Box>
    );
  }
  const setting = LEGAL_SETTINGS.find((s) => legalFieldOf(s) === field);
  return (
    <Box
      component="mark"
      data-testid={`legal-field-${field}`}
      sx={(theme) => ({
        bgcolor: alpha(theme.palette.quaternary.main, 0.16),
        color: 'text.primary',
        border: '1px dashed',
        borderColor: 'quaternary.main',
        borderRadius: 0.5,
        px: 0.5,
        fontStyle: 'italic',
      })}
    >
      {t('fieldToComplete', { field: t(`fields.${field}`) })}
      {setting ? ` (${setting})` : ''}
    </Box>
  );
}

/** Replaces `[[field]]` markers with the operator's details, or a marked blank when unset. */
function useFieldText(): (text: string) => ReactNode {
  const { i18n } = useTranslation('legal');
  const { data: fromServer } = useQuery({
    queryKey: ['legal', 'operator'],
    queryFn: () => api<Record<string, string>>('GET', '/legal/operator'),
    staleTime: Infinity,
  });
  const details = useMemo(
    () => operatorDetails(i18n.resolvedLanguage ?? i18n.language, fromServer),
    [i18n.resolvedLanguage, i18n.language, fromServer],
  );
  return (text) =>
    text.split(/(\[\[\w+\]\])/).map((part, index) => {
      const match = /^\[\[(\w+)\]\]$/.exec(part);
      const field = match?.[1];
      if (!field || !isOperatorField(field)) return <Fragment key={index}>{part}</Fragment>;
      const value = details[field];
      return value ? <Fragment key={index}>{value}</Fragment> : <FieldToComplete key={index} field={field} />;
    });
}

function LegalDocument({
  name,
  hideTitle = false,
  afterSection,
}: LegalTextProps & { name: LegalDocumentName; afterSection?: Record<number, ReactNode> }) {
  const { t } = useTranslation('legal');
  const fieldText = useFieldText();
  const doc = t(name, { returnObjects: true }) as unknown as LegalDocumentContent;
  const sections = asArray<LegalSection>(doc.sections);

  return (
    <Box component="article" data-testid={`legal-${name}`} sx={{ '& p': { mb: 1.5 } }}>
      {!hideTitle && (
        <Typography variant="h2" component="h2" sx={{ mb: 1 }}>
          {doc.title}
        </Typography>
      )}
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        {fieldText(t('lastUpdated'))}
      </Typography>
      <Typography>{fieldText(doc.intro)}</Typography>
      {sections.map((section, index) => (
        <Box component="section" key={section.heading} sx={{ mt: 3 }}>
          <Typography variant="h3" component="h3" sx={{ mb: 1 }}>
            {section.heading}
          </Typography>
          {asArray<LegalBlock>(section.blocks).map((block, blockIndex) =>
            'list' in block ? (
              <Box component="ul" key={blockIndex} sx={{ pl: 3, mt: 0, mb: 1.5 }}>
                {block.list.map((item) => (
                  <Typography component="li" key={item} sx={{ mb: 0.75 }}>
                    {fieldText(item)}
                  </Typography>
                ))}
              </Box>
            ) : (
              <Typography key={blockIndex}>{fieldText(block.p)}</Typography>
            ),
          )}
          {afterSection?.[index]}
        </Box>
      ))}
    </Box>
  );
}

export function GeneralConditionsText(props: LegalTextProps) {
  return <LegalDocument name="conditions" {...props} />;
}

export function PrivacyPolicyText(props: LegalTextProps) {
  return <LegalDocument name="privacy" {...props} />;
}

export function LegalNoticeText(props: LegalTextProps) {
  return <LegalDocument name="legalNotice" {...props} />;
}

function CookieTable() {
  const { t } = useTranslation('legal');
  const items = asArray<CookieItem>(t('cookies.items', { returnObjects: true }));
  const label = {
    storage: t('cookies.table.storage'),
    purpose: t('cookies.table.purpose'),
    lifetime: t('cookies.table.lifetime'),
  };
  return (
    <TableContainer
      sx={(theme) => ({
        border: 1,
        borderColor: 'divider',
        borderRadius: 1,
        my: 2,
        '& thead th': { fontWeight: 700 },
        // On narrow screens each item becomes a card with its own labels instead of a cramped table.
        [theme.breakpoints.down('md')]: {
          '& thead': { display: 'none' },
          '& tr': { display: 'block', py: 1, borderBottom: 1, borderColor: 'divider' },
          '& tr:last-of-type': { borderBottom: 0 },
          '& td, & tbody th': { display: 'block', border: 0, py: 0.5 },
          '& td::before': { content: 'attr(data-label)', display: 'block', fontWeight: 700, color: 'text.secondary' },
        },
      })}
    >
      <Table size="small" aria-label={t('cookies.table.caption')}>
        <TableHead>
          <TableRow>
            <TableCell component="th" scope="col">
              {t('cookies.table.name')}
            </TableCell>
            <TableCell component="th" scope="col">
              {label.storage}
            </TableCell>
            <TableCell component="th" scope="col">
              {label.purpose}
            </TableCell>
            <TableCell component="th" scope="col">
              {label.lifetime}
            </TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {items.map((item) => (
            <TableRow key={`${item.name}-${item.storage}`} data-testid={`cookie-item-${item.name}`}>
              <TableCell component="th" scope="row">
                <Box component="code" sx={{ fontFamily: 'monospace', fontSize: 14, fontWeight: 700 }}>
                  {item.name}
                </Box>
              </TableCell>
              <TableCell data-label={label.storage}>{item.storage}</TableCell>
              <TableCell data-label={label.purpose}>{item.purpose}</TableCell>
              <TableCell data-label={label.lifetime}>{item.lifetime}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}

export function CookiePolicyText(props: LegalTextProps) {
  return <LegalDocument name="cookies" afterSection={{ 0: <CookieTable /> }} {...props} />;
}
