// Paging for every list endpoint. Each list accepts both spellings, `page`/`per_page` and
// `limit`/`offset` (one documented as canonical per list, as the API contract names it), refuses a
// mix of the two with a 400 that says so, and answers with one `pagination` object whatever the
// spelling: totals, both spellings' numbers, and links to the next and previous pages.
import type { FastifyRequest } from 'fastify';
import { errors } from '../lib/errors.js';

export type PageStyle = 'offset' | 'page';

/** How one list pages. */
export interface ListPaging {
  /** The spelling documented as canonical for this list; the other one is accepted too. */
  canonical: PageStyle;
  /** Page size when the request gives none. Default 20. */
  defaultSize?: number;
  /** Largest page size. Default 100. */
  maxSize?: number;
  /**
   * Also accept `page` with `limit` as its page size (the contract spells
   * GET /projects/{id}/documents that way). Default false.
   */
  pageWithLimit?: boolean;
}

/** The window a request asked for, in both spellings. `page` is 1-based. */
export interface Paging {
  /** The spelling the request used (the canonical one when it gave none); links keep it. */
  style: PageStyle;
  limit: number;
  offset: number;
  page: number;
  perPage: number;
  /** The page-size parameter of page-style links: `per_page`, or `limit` where the request paired it with `page`. */
  sizeParam: 'per_page' | 'limit';
}

/** The `pagination` object of every list answer. */
export interface Pagination {
  total: number;
  limit: number;
  offset: number;
  has_more: boolean;
  page: number;
  per_page: number;
  total_pages: number;
  /** Path and query of the next page in the request's spelling, or null on the last page. */
  next: string | null;
  /** Path and query of the previous page, or null on the first. */
  prev: string | null;
}

// `page` and `offset` get int4's bounds from the validator (src/http/validation.ts); the offsets
// derived from them are passed to SQL as bigint OFFSETs.
const PAGE_KEYS = ['page', 'per_page'] as const;
const OFFSET_KEYS = ['limit', 'offset'] as const;

const spelled = (s: PageStyle) => (s === 'page' ? 'page/per_page' : 'limit/offset');

/** Query-string properties for a list's schema (spread them into `querystring.properties`). */
export function pagingQuery(spec: ListPaging): Record<string, object> {
  const size = spec.defaultSize ?? 20;
  const max = spec.maxSize ?? 100;
  const page = spec.canonical === 'page';
  const alias = page ? 'Alternative spelling (limit/offset): ' : 'Alternative spelling (page/per_page): ';
  return {
    page: { type: 'integer', minimum: 1, description: `${page ? '' : alias}1-based page number (default 1).` },
    per_page: {
      type: 'integer',
      minimum: 1,
      maximum: max,
      description: `${page ? '' : alias}Items per page (default ${size}, at most ${max}).`,
    },
    limit: {
      type: 'integer',
      minimum: 1,
      maximum: max,
      description: `${page && !spec.pageWithLimit ? alias : ''}Items to return (default ${size}, at most ${max}).${spec.pageWithLimit ? ' With `page`, the page size.' : ''}`,
    },
    offset: { type: 'integer', minimum: 0, description: `${page ? alias : ''}Items to skip (default 0).` },
  };
}

/** The JSON schema of the `pagination` object (for response schemas). */
export const paginationSchema = {
  type: 'object',
  required: ['total', 'limit', 'offset', 'has_more', 'page', 'per_page', 'total_pages', 'next', 'prev'],
  properties: {
    total: { type: 'integer', description: 'Items matching the request, over all pages' },
    limit: { type: 'integer' },
    offset: { type: 'integer' },
    has_more: { type: 'boolean' },
    page: { type: 'integer', description: '1-based' },
    per_page: { type: 'integer' },
    total_pages: { type: 'integer' },
    next: {
      type: ['string', 'null'],
      description: 'Path and query of the next page, in the spelling the request used',
    },
    prev: { type: ['string', 'null'], description: 'Path and query of the previous page' },
  },
};

type Query = Record<string, unknown>;
const given = (q: Query, keys: readonly string[]) => keys.filter((k) => q[k] !== undefined);

/**
 * Reads the paging parameters of a validated query (their bounds are checked by the schema from
 * pagingQuery). A request that mixes the two spellings is refused with a 400 naming both.
 */
export function readPaging(query: unknown, spec: ListPaging): Paging {
  const q = (query ?? {}) as Query;
  const size = spec.defaultSize ?? 20;
  // The contract's own `page` + `limit` (limit as the page size), on the lists that use it.
  if (
    spec.pageWithLimit &&
    q.page !== undefined &&
    q.limit !== undefined &&
    q.offset === undefined &&
    q.per_page === undefined
  ) {
    const perPage = q.limit as number;
    const page = q.page as number;
    return { style: 'page', page, perPage, limit: perPage, offset: (page - 1) * perPage, sizeParam: 'limit' };
  }
  const pageKeys = given(q, PAGE_KEYS);
  const offsetKeys = given(q, OFFSET_KEYS);
  if (pageKeys.length > 0 && offsetKeys.length > 0) {
    const both = [...pageKeys, ...offsetKeys];
    throw errors.validation(
      `Use either page/per_page or limit/offset, not both (got ${both.join(', ')}); this list's documented spelling is ${spelled(spec.canonical)}`,
      both.map((field) => ({ field, message: 'cannot be combined with the other paging spelling', in: 'querystring' })),
    );
  }
  const style: PageStyle = pageKeys.length > 0 ? 'page' : offsetKeys.length > 0 ? 'offset' : spec.canonical;
  if (style === 'page') {
    const page = (q.page as number | undefined) ?? 1;
    const perPage = (q.per_page as number | undefined) ?? size;
    return { style, page, perPage, limit: perPage, offset: (page - 1) * perPage, sizeParam: 'per_page' };
  }
  const limit = (q.limit as number | undefined) ?? size;
  const offset = (q.offset as number | undefined) ?? 0;
  return { style, limit, offset, perPage: limit, page: Math.floor(offset / limit) + 1, sizeParam: 'per_page' };
}

/** `url` (path and query) with the paging parameters replaced by `set`, in one spelling. */
function link(url: string, set: Record<string, number>): string {
  const u = new URL(url, 'http://x');
  for (const k of [...PAGE_KEYS, ...OFFSET_KEYS]) u.searchParams.delete(k);
  for (const [k, v] of Object.entries(set)) u.searchParams.set(k, String(v));
  return `${u.pathname}?${u.searchParams.toString()}`;
}

/** The pagination object for `count` items of `total` answered to a request at `url`. */
export function pagination(p: Paging, total: number, count: number, url: string): Pagination {
  const hasMore = p.offset + count < total;
  const totalPages = Math.ceil(total / p.perPage);
  let next: string | null = null;
  let prev: string | null = null;
  if (p.style === 'page') {
    const sizeKey = p.sizeParam;
    if (hasMore) next = link(url, { page: p.page + 1, [sizeKey]: p.perPage });
    if (p.page > 1) prev = link(url, { page: Math.min(p.page - 1, Math.max(totalPages, 1)), [sizeKey]: p.perPage });
  } else {
    if (hasMore) next = link(url, { limit: p.limit, offset: p.offset + p.limit });
    if (p.offset > 0)
      prev = link(url, {
        limit: p.limit,
        offset: Math.max(0, Math.min(p.offset - p.limit, Math.max(total - p.limit, 0))),
      });
  }
  return {
    total,
    limit: p.limit,
    offset: p.offset,
    has_more: hasMore,
    page: p.page,
    per_page: p.perPage,
    total_pages: totalPages,
    next,
    prev,
  };
}

/** A list answer: `{success, data, pagination, message}`. */
export function paged<T>(req: Pick<FastifyRequest, 'url'>, p: Paging, items: T[], total: number, message = 'OK') {
  return { success: true as const, data: items, pagination: pagination(p, total, items.length, req.url), message };
}

/**
 * Items `offset .. offset+limit` from a source that only pages by page number and size: one
 * page when the offset falls on a page boundary, else the two pages that cover the window.
 */
export async function pageWindow<T>(
  p: Paging,
  fetch: (page: number, perPage: number) => Promise<{ items: T[]; total: number }>,
): Promise<{ items: T[]; total: number }> {
  if (p.offset % p.limit === 0) return fetch(p.offset / p.limit + 1, p.limit);
  const first = Math.floor(p.offset / p.limit) + 1;
  const a = await fetch(first, p.limit);
  const b = await fetch(first + 1, p.limit);
  const skip = p.offset % p.limit;
  return { items: [...a.items, ...b.items].slice(skip, skip + p.limit), total: a.total };
}

/**
 * A list handler's paging in one call: `paging` is the window asked for, `answer(items, total)`
 * the envelope with its pagination. Throws the 400 for a mixed spelling.
 */
export function listPaging(req: Pick<FastifyRequest, 'url' | 'query'>, spec: ListPaging) {
  const paging = readPaging(req.query, spec);
  return {
    paging,
    answer: <T>(items: T[], total: number, message?: string) => paged(req, paging, items, total, message),
  };
}
