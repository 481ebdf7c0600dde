import { and, eq, gte, lt, lte, notInArray, sql, type Placeholder, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import type { Language } from '@sutura/domain/i18n';
import type { ListQuery } from '@sutura/domain/query';
import { MEDIA_STATUSES, VIDEO_KINDS, VIDEO_STATUSES, VIDEO_TABS } from '@sutura/domain/videos';
import { surgeries, videos } from '../../db/schema.ts';
import type { RequestUser } from '../../http/access.ts';
import { AppError } from '../../http/errors.ts';

/** Is the video shared with this person? (a correlated subquery on `videos`) */
export const sharedWith = (userId: string | Placeholder) =>
  sql<boolean>`exists (select 1 from video_shares s where s.video_id = ${videos.id} and s.user_id = ${userId})`;

export const pictureCount = sql<number>`(select count(*)::int from video_pictures p where p.video_id = ${videos.id})`;

const invalid = (key: string) => new AppError('VALIDATION', {}, [{ path: `filter.${key}`, code: 'INVALID_VALUE' }]);

const uuid = z.uuid();
const date = z.union([z.iso.date(), z.iso.datetime({ offset: true })]);

function oneOf<T extends string>(key: string, value: string, allowed: readonly T[]): T {
  if (!(allowed as readonly string[]).includes(value)) throw invalid(key);
  return value as T;
}

/** A day (`2026-01-31`) covers the whole day in UTC; a date-time is taken as it is. */
function parseDate(key: string, value: string): { at: Date; dayOnly: boolean } {
  if (!date.safeParse(value).success) throw invalid(key);
  const at = new Date(value);
  if (Number.isNaN(at.getTime())) throw invalid(key);
  return { at, dayOnly: !value.includes('T') };
}

/**
 * The WHERE clause of GET /videos: the tab (the caller's cases by stage, or the ones shared with
 * them; `all` for administrators) and the filters, each value checked (400 INVALID_VALUE).
 * Without a tab the caller sees every case of theirs.
 */
export function listConditions(filter: ListQuery['filter'], viewer: RequestUser, viewerId: string | Placeholder = viewer.id): SQL {
  // The videos administrators upload as best cases are nobody's case.
  const conditions: SQL[] = [eq(videos.purpose, 'case')];
  const mine = eq(videos.authorId, viewerId);
  const tab = filter.tab;
  if (tab === undefined) conditions.push(mine);
  else if (tab === 'all') {
    if (!viewer.roles.includes('administrator')) throw invalid('tab');
  } else {
    switch (oneOf('tab', tab, VIDEO_TABS)) {
      case 'mine':
        conditions.push(mine, eq(videos.status, 'saved'));
        break;
      case 'toAnalyze':
        conditions.push(mine, notInArray(videos.status, ['saved', 'analysed']));
        break;
      case 'analysed':
        conditions.push(mine, eq(videos.status, 'analysed'));
        break;
      case 'shared':
        conditions.push(sharedWith(viewerId));
        break;
    }
  }
  for (const [key, value] of Object.entries(filter)) {
    switch (key) {
      case 'tab':
        break;
      case 'surgeryId':
      case 'organId':
        if (!uuid.safeParse(value).success) throw invalid(key);
        conditions.push(eq(key === 'surgeryId' ? videos.surgeryId : videos.organId, value));
        break;
      case 'status':
        conditions.push(eq(videos.status, oneOf(key, value, VIDEO_STATUSES)));
        break;
      case 'mediaStatus':
        conditions.push(eq(videos.mediaStatus, oneOf(key, value, MEDIA_STATUSES)));
        break;
      case 'kind':
        conditions.push(eq(videos.kind, oneOf(key, value, VIDEO_KINDS)));
        break;
      case 'favourite':
        conditions.push(eq(videos.favourite, oneOf(key, value, ['true', 'false'] as const) === 'true'));
        break;
      case 'from':
        conditions.push(gte(videos.createdAt, parseDate(key, value).at));
        break;
      case 'to': {
        const { at, dayOnly } = parseDate(key, value);
        conditions.push(dayOnly ? lt(videos.createdAt, new Date(at.getTime() + 86_400_000)) : lte(videos.createdAt, at));
        break;
      }
      default:
        throw invalid(key);
    }
  }
  if (filter.from && filter.to && parseDate('from', filter.from).at > parseDate('to', filter.to).at) {
    throw new AppError('VALIDATION', {}, [{ path: 'filter.to', code: 'DATE_RANGE_INVERTED' }]);
  }
  return and(...conditions) ?? sql`true`;
}

/** ORDER BY of GET /videos; newest first by default, the id breaks ties so pages never overlap. */
export function listOrder(sort: ListQuery['sort'], lang: Language): SQL[] {
  const columns = {
    createdAt: sql`${videos.createdAt}`,
    updatedAt: sql`${videos.updatedAt}`,
    duration: sql`${videos.duration}`,
    surgery: lang === 'fr' ? sql`${surgeries.nameFr}` : sql`${surgeries.nameEn}`,
  } as Record<string, SQL>;
  const order = sort.map(({ field, direction }) => {
    const column = columns[field];
    if (!column) throw invalid('sort');
    return direction === 'desc' ? sql`${column} desc nulls last` : sql`${column} asc nulls last`;
  });
  if (!sort.length) order.push(sql`${videos.createdAt} desc`);
  order.push(sql`${videos.id} asc`);
  return order;
}
