import { describe, expect, it } from 'vitest';
import { parseListQuery, QueryError, serializeQuery } from './query.ts';

const fields = { filter: ['status', 'surgery'], sort: ['createdAt', 'title'], select: ['information', 'career'], populate: ['media'] };

describe('parseListQuery', () => {
  it('reads filter, sort, select, populate, page, limit and langCode', () => {
    const q = parseListQuery(
      {
        filter: 'status==saved__surgery==colectomy',
        sort: '-createdAt,title',
        select: 'information,career',
        populate: 'media',
        page: '2',
        limit: '50',
        langCode: 'en',
      },
      fields,
    );
    expect(q).toEqual({
      filter: { status: 'saved', surgery: 'colectomy' },
      sort: [
        { field: 'createdAt', direction: 'desc' },
        { field: 'title', direction: 'asc' },
      ],
      select: ['information', 'career'],
      populate: ['media'],
      page: 2,
      limit: 50,
      langCode: 'en',
    });
  });

  it('keeps "==" inside a value and applies the defaults', () => {
    expect(parseListQuery({ filter: 'surgery==a==b' }, fields).filter).toEqual({ surgery: 'a==b' });
    expect(parseListQuery({}, fields)).toMatchObject({ page: 1, limit: 20, filter: {}, sort: [] });
  });

  it.each([
    [{ unknown: '1' }, 'unknown'],
    [{ filter: 'owner==me' }, 'owner'],
    [{ filter: 'status' }, 'status'],
    [{ sort: '-password' }, 'password'],
    [{ select: 'passwordHash' }, 'passwordHash'],
    [{ populate: 'sessions' }, 'sessions'],
    [{ page: '0' }, 'page'],
    [{ limit: '101' }, 'limit'],
    [{ limit: 'ten' }, 'limit'],
    [{ langCode: 'de' }, 'langCode'],
  ])('refuses %j naming the field', (query, field) => {
    expect(() => parseListQuery(query, fields)).toThrow(QueryError);
    try {
      parseListQuery(query, fields);
    } catch (e) {
      expect((e as QueryError).field).toBe(field);
    }
  });

  it('serialises the same syntax on the client side', () => {
    const s = serializeQuery({
      filter: { status: 'saved', surgery: 'colectomy' },
      sort: ['-createdAt'],
      page: 2,
      limit: 10,
      langCode: 'fr',
      select: ['information'],
    });
    const parsed = parseListQuery(Object.fromEntries(new URLSearchParams(s.slice(1))), fields);
    expect(parsed.filter).toEqual({ status: 'saved', surgery: 'colectomy' });
    expect(parsed.sort).toEqual([{ field: 'createdAt', direction: 'desc' }]);
    expect(parsed).toMatchObject({ page: 2, limit: 10, langCode: 'fr', select: ['information'] });
    expect(serializeQuery({})).toBe('');
  });
});
